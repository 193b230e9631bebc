"""`finish` is facts | verification | judge | writer: the facts stage gathers and nothing more
(it runs no verification and names no finding, even over a record that cannot be trusted),
the verification stage runs what a completed finish claims, the judge names what is wrong.
"""

from __future__ import annotations

import json
from typing import Any

from conftest import Repo


def stream(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def started(repo: Repo) -> None:
    repo.write("lib/a.py", "A = 1\n")
    repo.commit("lib")
    assert repo.mj("start", "greet", "--scope", "lib").code == 0
    repo.write("lib/a.py", "A = 2\n")


FACTS = ("mj-state", "facts", "--for", "finish", "--outcome", "completed")
HANDOVER = (
    "# Objective\nWrite the docs.\n# Current State\nHalf of them written.\n"
    "# Next Action\nWrite the rest.\n"
)
NOTE = "# Objective\nGreet.\n# Current State\nDone.\n# Next Action\nNone.\n"


def test_the_facts_stage_runs_no_verification_and_judges_nothing(layer_repo: Repo) -> None:
    started(layer_repo)
    gathered = layer_repo.run(*FACTS, "--verify-command", "touch ran")
    assert gathered.code == 0, gathered
    assert not (layer_repo.root / "ran").exists()  # the command was named, not run
    records = stream(gathered.out)
    assert [r for r in records if r.get("kind") == "finding"] == []
    (finish,) = [r for r in records if r.get("fact") == "finish"]
    assert finish["verification"]["given"] == "touch ran"
    assert "verify" not in finish["contract"] and "trust" not in finish["contract"]

    ran = layer_repo.run("mj-state", "verification", stdin=gathered.out)
    assert ran.code == 0, ran
    assert (layer_repo.root / "ran").exists()
    (told,) = [r for r in stream(ran.out) if r.get("fact") == "verification"]
    assert told["verify"]["exit"] == 0 and len(told["verify"]["tree"]) == 40


def test_a_record_that_cannot_be_trusted_is_gathered_and_then_judged(layer_repo: Repo) -> None:
    started(layer_repo)
    ledger = layer_repo.root / ".ai/local/state/ledger.jsonl"
    lines = ledger.read_text().splitlines(keepends=True)
    ledger.write_text("".join([*lines, "not json\n"]))
    gathered = layer_repo.run(*FACTS[:4], "--check")
    assert gathered.code == 0, gathered  # a malformed line is a fact here, not a verdict
    assert [r for r in stream(gathered.out) if r.get("kind") == "finding"] == []
    (finish,) = [r for r in stream(gathered.out) if r.get("fact") == "finish"]
    assert finish["trust"]["ledger_problems"][0][0] == len(lines) + 1

    judged = layer_repo.run("mj-watch", "finish", stdin=gathered.out)
    assert judged.code == 10, judged
    fails = [r for r in stream(judged.out) if r.get("level") == "FAIL"]
    assert any(r["subject"] == f".ai/local/state/ledger.jsonl:{len(lines) + 1}" for r in fails)


def test_a_completion_the_verification_stage_never_saw_is_unmet(layer_repo: Repo) -> None:
    """The judge over the facts alone: the verification did not run, so it did not pass."""
    started(layer_repo)
    gathered = layer_repo.run(*FACTS, "--verify-command", "true", "--note", "-", stdin=NOTE)
    judged = layer_repo.run("mj-watch", "finish", stdin=gathered.out)
    assert judged.code == 10, judged
    fails = [r for r in stream(judged.out) if r.get("level") == "FAIL"]
    assert [r["category"] for r in fails] == ["verification"]
    whole = layer_repo.mj(
        "finish", "--outcome", "completed", "--verify-command", "true", "--note", "-", stdin=NOTE
    )
    assert whole.code == 0, whole


def test_the_printed_pipeline_has_the_verification_stage_only_for_a_real_finish(
    layer_repo: Repo,
) -> None:
    started(layer_repo)
    real = layer_repo.mj("finish", "--outcome", "completed", "--pipeline").out
    check = layer_repo.mj("finish", "--check", "--pipeline").out
    assert "mj-state verification" in real and "mj-state verification" not in check
    assert (
        real.index("facts --for finish")
        < real.index("verification")
        < real.index("mj-watch finish")
    )


def test_a_copy_that_departs_is_named_with_the_ledger_line_that_set_the_field(
    layer_repo: Repo,
) -> None:
    """The line numbers travel only for a departing copy; they are the ledger's own."""
    for name in ("one", "two"):  # lines before the task's, which its numbers count
        assert layer_repo.mj("start", name, "--scope", "docs").code == 0
        assert layer_repo.mj("handover", "--close", stdin=HANDOVER).code == 0
    started(layer_repo)
    copy = layer_repo.root / ".ai/local/state/current.yaml"
    copy.write_text(copy.read_text().replace("- lib", "- docs"))
    result = layer_repo.mj("finish", "--check", "--json")
    assert result.code == 10, result
    (found,) = [r for r in stream(result.out) if r.get("subject", "").endswith(":scope")]
    line = found["reproduce"].split("sed -n '")[1].split("p'")[0]
    ledger = (layer_repo.root / ".ai/local/state/ledger.jsonl").read_text().splitlines()
    events = [json.loads(text).get("event") for text in ledger]
    started_at = len(events) - events[::-1].index("task.started")  # the newest, numbered from 1
    assert int(line) == started_at > 2  # counted past the earlier tasks' lines
    assert json.loads(ledger[started_at - 1])["scope"] == ["lib"]
