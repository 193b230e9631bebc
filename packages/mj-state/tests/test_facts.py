"""`mj-state facts`: the records a briefing is built from, read cheaply."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from mj_core import share
from mj_policy.layer import loader as layer
from mj_state import context_facts as facts
from mj_state import context_reads as factsmore


def repo(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main", str(tmp_path)], check=True)
    shutil.copytree(share.path("skeleton", "ai"), tmp_path / ".ai")
    return tmp_path


def test_facts_without_a_task_in_authority_order(tmp_path: Path) -> None:
    sys.modules.pop("jsonschema", None)
    found = list(facts.collect(repo(tmp_path)))
    assert [f["fact"] for f in found] == [
        "git",
        "policy",
        "task",
        "profile",
        "questions",
        "decisions",
        "checkpoint",
        "handover",
        "history",
    ]
    assert all(json.loads(json.dumps(f).encode()) == f for f in found)
    assert found[2]["task"] is None and found[6]["record"] is None
    assert "jsonschema" not in sys.modules


def test_history_parses_only_the_tail(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.jsonl"
    lines = [
        json.dumps({"ts": f"2026-09-03T00:00:{n:02d}Z", "event": "e", "n": n}) for n in range(50)
    ]
    ledger.write_text("\n".join(lines) + "\nnot json\n")
    tail = factsmore.history(ledger, 5)
    assert tail["total"] == 51
    assert [e["detail"] for e in tail["events"]] == ["n=46", "n=47", "n=48", "n=49"]
    assert factsmore.history(tmp_path / "missing.jsonl", 5) == {"events": [], "total": 0}


def test_documents_name_the_chain_or_why_not(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "lib").mkdir()
    chain = factsmore.documents(layer.load(root), ["lib", "nowhere"])
    assert chain[0]["path"] == "lib" and chain[0]["ids"] and chain[0]["problem"] is None
    assert chain[1]["ids"] == [] and "refused-path" in chain[1]["problem"]


def test_the_prompt_fact_carries_the_checked_asset(tmp_path: Path) -> None:
    fact = factsmore.prompt(layer.load(repo(tmp_path)), "resume")
    assert fact["name"] == "resume" and "{{TASK}}" in fact["body"] and fact["body_line"] > 1


def test_history_parses_only_the_last_lines_and_counts_them_all(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.jsonl"
    assert factsmore.history(ledger, 3) == {"events": [], "total": 0}
    lines = [
        json.dumps({"ts": f"2026-01-0{n}T00:00:00Z", "event": "task.checkpoint", "n": n})
        for n in range(1, 6)
    ]
    ledger.write_text("\n".join([*lines[:3], "not json", lines[4]]) + "\n")
    found = factsmore.history(ledger, 3)
    assert found["total"] == 5
    assert [e["detail"] for e in found["events"]] == ["n=3", "n=5"]  # the bad line is skipped
    ledger.write_text("\n".join(lines))  # a last line without its newline still counts
    found = factsmore.history(ledger, 2)
    assert [e["detail"] for e in found["events"]] == ["n=4", "n=5"] and found["total"] == 5
    assert factsmore.history(ledger, 0) == {"events": [], "total": 5}
