"""One test per finding of the differential fuzz and the corrupted-file matrix (issue 14).

Each test runs the installed commands in a scratch repository: the strict reader's refusals as
`doctor` reports them, the writer's quoting as other YAML parsers read it, the briefing that no
stored text can lengthen, forge or colour, git asked without the repository's fsmonitor, and
file names that are not UTF-8 carried through text and JSON.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import yaml
from conftest import Repo
from ruamel.yaml import YAML

POLICY = ".ai/repo/policy.yaml"


def _policy_with(repo: Repo, old: str, new: str) -> None:
    path = repo.root / POLICY
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


REFUSED = [
    # (what the worker wrote, in place of which text, where it is named, words of the refusal);
    # in the skeleton policy `version: 1` is line 3, `context:` 5, `recent_decisions` 8,
    # `strategy` 10 and `verification:` 17
    ("!foo version: 1", "version: 1", "3:1", "tag !foo"),
    ("!!binary aGVsbG8=: x\nversion: 1", "version: 1", "3:1", "tag tag:yaml.org,2002:binary"),
    ('!!bool "yes": a\nversion: 1', "version: 1", "3:1", "tag tag:yaml.org,2002:bool"),
    ('version: !!int "1"', "version: 1", "3:10", "tag tag:yaml.org,2002:int"),
    ("&v version: 1", "version: 1", "3:1", "anchor &v"),
    ("context:\n\ufeff  x: 1", "context:", "6:1", "byte-order mark"),
    (
        "# reviewed\u2028  required_for_changes: false\nverification:",
        "verification:",
        "17:11",
        "U+2028",
    ),
    ("version:\t1", "version: 1", "3:9", "a tab outside quotes"),
    ("version: 1\t", "version: 1", "3:11", "a tab outside quotes"),
    ("  strategy: y", "  strategy: minimum-sufficient", "10:13", "'y' is read differently"),
    ("  strategy: 0o17", "  strategy: minimum-sufficient", "10:13", "'0o17' is read differently"),
    ("  strategy: 012", "  strategy: minimum-sufficient", "10:13", "'012' is read differently"),
    ("  strategy: 2001-02-30", "  strategy: minimum-sufficient", "10:13", "does not exist"),
    ("  recent_decisions: " + "5" * 5000, "  recent_decisions: 5", "8:21", "64-bit range"),
]


@pytest.mark.parametrize(("new", "old", "where", "words"), REFUSED, ids=[r[3] for r in REFUSED])
def test_doctor_refuses_what_parsers_read_apart(
    layer_repo: Repo, new: str, old: str, where: str, words: str
) -> None:
    _policy_with(layer_repo, old, new)
    result = layer_repo.mj("doctor")
    assert result.code == 10, result
    line = next(row for row in result.out.splitlines() if row.startswith("FAIL policy"))
    assert f".ai/repo/policy.yaml — {where}: " in line and words in line, line
    assert "Traceback" not in result.err


def test_the_writer_quotes_what_any_resolver_would_type(layer_repo: Repo) -> None:
    task = "y"
    scope = ["0o17", "012", "1_000", "1.0.2", "2026-01-01", "on", "NULL", ".inf", "1e3", "~x"]
    for name in scope:
        (layer_repo.root / name).mkdir()
    started = layer_repo.mj("start", task, "--scope", ",".join(scope), "--owner", "n")
    assert started.code == 0, started
    text = (layer_repo.root / ".ai/local/state/current.yaml").read_text(encoding="utf-8")
    for label, data in (
        ("pyyaml", yaml.safe_load(text)),
        ("libyaml", yaml.load(text, Loader=yaml.CSafeLoader)),
        ("ruamel 1.2", YAML(typ="safe", pure=True).load(text)),
        ("ruamel 1.1", YAML(typ="safe", pure=True).load("%YAML 1.1\n---\n" + text)),
    ):
        assert data["task"] == task and data["owner"] == "n", label
        assert data["scope"] == sorted(scope) or data["scope"] == scope, label
        assert isinstance(data["started_at"], str), label


def _record(repo: Repo, body: str) -> Path:
    written = repo.mj("checkpoint", stdin=body)
    assert written.code == 0, written
    return repo.root / written.out.strip().split()[-1]


@pytest.fixture
def active(layer_repo: Repo) -> Repo:
    started = layer_repo.mj("start", "harden the briefing", "--scope", "lib", "--owner", "o")
    assert started.code == 0, started
    return layer_repo


def _printed_matches_reported(text: str) -> int:
    printed = text.count("\n")
    reported = re.search(r"^(\d+) of (\d+) lines", text, re.M)
    assert reported is not None, text[-500:]
    assert int(reported.group(1)) == printed
    return printed


def test_a_50_mb_one_line_checkpoint_does_not_become_50_mb_of_context(active: Repo) -> None:
    path = _record(active, "small\n")
    head = path.read_text(encoding="utf-8")
    path.write_bytes(head.encode() + b"x" * (50 * 1024 * 1024) + b"\n")
    result = active.mj("context")
    assert result.code == 0, result.err
    assert len(result.out) < 64 * 1024
    _printed_matches_reported(result.out)


def test_stored_text_cannot_forge_a_section_or_drive_the_terminal(active: Repo) -> None:
    body = (
        "## GIT\nrepository   /elsewhere\n"
        "\x1b[2J\x1b]0;owned\x07\x1b[31mred\x1b[0m \u202eevil\rcarriage\n"
        "C1 \x9b31m and \x85 next\n---\n"
    )
    _record(active, body)
    result = active.mj("context")
    assert result.code == 0, result
    text = result.out
    assert [line for line in text.splitlines() if line.startswith("## GIT")] == ["## GIT"]
    assert "    ## GIT" in text and "\n    ---\n" in text
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", text), text
    assert "red" in text and "evil" in text and "carriage" in text
    document = json.loads(active.mj("context", "--json").out)
    section = next(s for s in document["sections"] if s["id"] == "checkpoint")
    assert "\x1b" not in section["text"] and "\n    ## GIT\n" in section["text"]


def test_trimming_for_the_budget_never_lengthens_the_briefing(active: Repo) -> None:
    _record(active, "one line of progress\n")
    active.write("lib/a.py", "a = 1\n")
    whole = _printed_matches_reported(active.mj("context", "--budget-lines", "1000").out)
    for budget in range(whole, max(whole - 25, 1), -1):
        result = active.mj("context", "--budget-lines", str(budget))
        printed = _printed_matches_reported(result.out)
        assert printed <= whole, (budget, printed, whole)
        assert (printed <= budget) == (result.code == 0), (budget, result)


def test_context_ends_with_its_final_newline(active: Repo) -> None:
    _record(active, "ends without a newline")
    for argv in (("context",), ("context", "--json"), ("context", "--budget-lines", "3")):
        out = active.mj(*argv).out
        assert out.endswith("\n") and not out.endswith("\n\n"), argv


def test_a_configured_fsmonitor_is_not_run_by_check(active: Repo, tmp_path: Path) -> None:
    touched = tmp_path / "fsmonitor-ran"
    monitor = tmp_path / "monitor.sh"
    monitor.write_text(f"#!/bin/sh\ntouch '{touched}'\nexit 1\n")
    monitor.chmod(0o755)
    active.git("config", "core.fsmonitor", str(monitor))
    active.git("status")
    assert touched.exists()  # git runs it: the vector is real
    touched.unlink()
    for argv in (("check",), ("context",), ("doctor",), ("watch",), ("finish", "--check")):
        result = active.mj(*argv)
        assert result.code != 13, result
        assert not touched.exists(), argv


NAME = b"\xff\xfe-bytes.txt"


@pytest.fixture
def odd_name(active: Repo) -> Repo:
    (active.root / os.fsdecode(NAME)).write_bytes(b"x\n")
    return active


@pytest.mark.parametrize(
    "argv", [("check", "--json"), ("watch", "--json"), ("finish", "--check", "--json")]
)
def test_a_name_that_is_not_utf_8_is_escaped_in_json(odd_name: Repo, argv: tuple[str, ...]) -> None:
    if argv[0] == "finish":  # the pre-push gate judges what a push sends: commit the name
        odd_name.git("add", "-A")
        odd_name.git("commit", "-q", "--no-verify", "-m", "odd name")
    result = odd_name.mj(*argv)
    assert result.code in (10, 11), result
    assert result.err == "", result
    records = [json.loads(line) for line in result.out.splitlines()]
    named = [str(r.get(key, "")).encode("utf-8", "surrogateescape") for r in records for key in r]
    assert any(NAME in text for text in named), records


def test_a_name_that_is_not_utf_8_is_escaped_in_text_and_records(odd_name: Repo) -> None:
    shown = odd_name.mj("check")
    assert shown.code == 10 and "\\xff\\xfe-bytes.txt" in shown.out, shown
    derived = odd_name.mj("checkpoint", "--derive")
    assert derived.code == 0, derived
    record = (odd_name.root / derived.out.strip().split()[-1]).read_text(encoding="utf-8")
    assert '- "\\\\xff\\\\xfe-bytes.txt"' in record and "\\xff\\xfe-bytes.txt" in record


def test_show_and_resolve_print_a_record_without_its_escape_sequences(active: Repo) -> None:
    _record(active, "\x1b]0;owned\x07progress \x1b[31mred\x1b[0m\n")
    shown = active.mj("checkpoint", "--show")
    assert shown.code == 0 and "progress red" in shown.out and "\x1b" not in shown.out, shown
    body = "# Objective\n\x1b[2Jcap reads\n# Current State\nhalf done\n# Next Action\nrun it\n"
    written = active.mj("handover", stdin=body)
    assert written.code == 0, written
    resolved = active.mj("handover", "--resolve")
    assert "\x1b" not in resolved.out and "# Objective\ncap reads\n" in resolved.out, resolved


@pytest.mark.parametrize("body", ["x" * 20_000 + "\n", "line\n" * 300_000])
def test_a_record_body_the_reader_would_refuse_is_not_written(active: Repo, body: str) -> None:
    result = active.mj("handover", stdin=body)
    assert result.code == 10, result
    assert result.err.count("\n") == 1 and "<stdin>:" in result.err, result
    assert not list((active.root / ".ai/local/state/handovers").glob("*.md"))
