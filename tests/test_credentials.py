"""Secrets are never stored: a corpus of fake credentials (every detector's shapes, two or more
each, in five places: alone, in prose, assigned, in JSON, in YAML) through every store — the
prompt archive, checkpoint, handover, decision and question — and in a tracked file for
`ratchet check`; and the detector library itself as the reference: whatever it flags in the
corpus, the archive holds redacted.
"""

from __future__ import annotations

import json
import os
import re

import credcorpus
import pytest
from conftest import Repo

HANDOVER = "# Objective\n{0}\n# Current State\nrunning\n# Next Action\nfinish it\n"


@pytest.fixture(scope="module")
def corpus() -> list[credcorpus.Fake]:
    return credcorpus.fakes()


def leaked(text: str, corpus: list[credcorpus.Fake]) -> list[str]:
    """The fakes (detector and its first characters) whose credential `text` holds."""
    return [f"{f.detector}: {f.credential[:12]}…" for f in corpus if f.credential in text]


def prompt(repo: Repo, text: str) -> dict[str, object]:
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "cc-1", "prompt": text}
    done = repo.mj("capture", "prompt", "--provider", "claude-code", stdin=json.dumps(payload))
    assert done.code == 0 and done.out == "", done
    archive = repo.root / ".ai/local/prompts"
    assert not (archive / "failures.log").exists(), (archive / "failures.log").read_text()
    (record,) = archive.glob("*.json")
    (shown,) = archive.glob("*.md")
    data: dict[str, object] = json.loads(record.read_text())
    data["rendering"] = shown.read_text()
    return data


def test_the_prompt_archive_keeps_no_credential_of_the_corpus(
    layer_repo: Repo, corpus: list[credcorpus.Fake]
) -> None:
    data = prompt(layer_repo, credcorpus.text(corpus))
    stored = json.dumps(data) + str(data["rendering"])
    assert leaked(stored, corpus) == []
    kinds = data["redactions"]
    assert isinstance(kinds, dict) and data["redacted"] == sum(kinds.values())
    assert {f.detector for f in corpus} <= set(kinds), set(kinds)
    assert data["redacted"] >= 5 * len(corpus)  # every fake in each of its five places
    for fake in corpus:  # never a digest of one either
        assert not any(str(v) in fake.credential for v in kinds.values() if len(str(v)) > 8)


def test_whatever_the_library_flags_in_the_corpus_the_archive_holds_redacted(
    layer_repo: Repo, corpus: list[credcorpus.Fake]
) -> None:
    from detect_secrets import SecretsCollection
    from detect_secrets.settings import default_settings

    files = credcorpus.files(corpus)
    scratch = layer_repo.root.parent / "library"
    scratch.mkdir()
    for name, text in files.items():
        (scratch / name).write_text(text)
    here = os.getcwd()
    os.chdir(scratch)
    try:
        with default_settings():  # every plugin it ships, its default filters
            found = SecretsCollection()
            for name in files:
                found.scan_file(name)
    finally:
        os.chdir(here)
    flagged = [(name, s.type, s.secret_value) for name, secrets in found.data.items()
               for s in secrets if s.secret_value]  # fmt: skip
    assert len(flagged) >= 4 * len(corpus), len(flagged)
    stored = prompt(layer_repo, credcorpus.text(corpus))["prompt"]
    missed = [(name, kind) for name, kind, value in flagged if value in str(stored)]
    assert missed == [], missed


def test_a_record_body_with_a_credential_is_refused_naming_the_line_and_the_kind(
    layer_repo: Repo, corpus: list[credcorpus.Fake]
) -> None:
    assert layer_repo.mj("start", "store the corpus", "--scope", "lib").code == 0
    policy = layer_repo.root / ".ai/repo/policy.yaml"  # room for the whole corpus in one note
    policy.write_text(policy.read_text().replace("max_body_lines: 40", "max_body_lines: 4000"))
    body = "A note about the deploy.\n\n" + credcorpus.text(corpus)
    for what, text in (("checkpoint", body), ("handover", body)):
        argv = [what] if what == "checkpoint" else [what, "--no-task"]
        stdin = text if what == "checkpoint" else HANDOVER.format(text)
        refused = layer_repo.mj(*argv, stdin=stdin)
        assert refused.code == 15, refused
        assert refused.err.startswith(f"majordomus: <stdin>:{3 if what == 'checkpoint' else 4}: ")
        assert f"a credential ({corpus[0].detector})" in refused.err, refused.err
        assert leaked(refused.out + refused.err, corpus) == []
        stored = layer_repo.mj(*argv, "--redact", stdin=stdin)
        assert stored.code == 0, stored
    records = [p for d in ("checkpoints", "handovers") for p in
               (layer_repo.root / ".ai/local/state" / d).glob("*.md")]  # fmt: skip
    assert len(records) == 2  # the refused writes left nothing
    for path in records:
        text = path.read_text()
        assert leaked(text, corpus) == [] and "[REDACTED]" in text


def test_a_decision_or_a_question_with_a_credential_is_refused_or_stored_redacted(
    layer_repo: Repo, corpus: list[credcorpus.Fake]
) -> None:
    assert layer_repo.mj("start", "decide with the corpus", "--scope", "lib").code == 0
    line = credcorpus.one_line(corpus)
    state = layer_repo.root / ".ai/local/state"
    writes = [
        ("decision", "add", "deploy keys", "--why", line),
        ("decision", "add", f"keys {line}", "--why", "the corpus"),
        ("question", "add", f"which key: {line}"),
    ]
    for argv in writes:
        refused = layer_repo.mj(*argv)
        assert refused.code == 15, refused
        assert "a credential (" in refused.err and leaked(refused.err, corpus) == []
        assert layer_repo.mj(*argv, "--redact").code == 0
    assert layer_repo.mj("question", "resolve", "1", "--answer", line).code == 15
    assert layer_repo.mj("question", "resolve", "1", "--answer", line, "--redact").code == 0
    for name in ("decisions.md", "open-questions.md", "ledger.jsonl"):
        text = (state / name).read_text()
        assert leaked(text, corpus) == [] and "[REDACTED]" in text, name


def test_the_corpus_in_a_tracked_file_fails_the_ratchet_naming_each_file_and_line(
    layer_repo: Repo, corpus: list[credcorpus.Fake]
) -> None:
    files = {f"notes/{name}": text for name, text in credcorpus.files(corpus).items()}
    for path, text in files.items():
        layer_repo.write(path, text)
    layer_repo.commit("the corpus", *files)
    checked = layer_repo.mj("ratchet", "check")
    assert checked.code == 10, checked
    assert leaked(checked.out + checked.err, corpus) == []
    for path, text in files.items():
        lines = text.split("\n")
        for fake in corpus:
            first = fake.credential.split("\n")[0]
            for number in (n + 1 for n, line in enumerate(lines) if first in line):
                assert f"FAIL ratchet     {path}:{number} — a secret-shaped string (" in (
                    checked.out
                ), (fake.detector, path, number)


def test_the_detector_loads_only_for_text_that_may_hold_a_credential(layer_repo: Repo) -> None:
    env = {**layer_repo.env, "PYTHONPROFILEIMPORTTIME": "1"}
    saved, layer_repo.env = layer_repo.env, env
    try:
        loaded = {}
        for said in ("Please tidy the parser and rerun the tests.", "the key is AKIA" + "Q7" * 8):
            payload = {"hook_event_name": "UserPromptSubmit", "prompt": said}
            done = layer_repo.mj("capture", "prompt", stdin=json.dumps(payload))
            assert done.code == 0
            loaded[said[:3]] = re.search(r"\|\s*detect_secrets$", done.err, re.M) is not None
    finally:
        layer_repo.env = saved
    assert loaded == {"Ple": False, "the": True}
