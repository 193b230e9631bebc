"""Proof is not self-asserted: scripted as a worker would try it, each refused or reported.

- `evidence --artifact` of a file the task itself wrote (uncommitted, or committed in its own
  commits) is work, not proof: 15. A file as the task's start commit holds it is proof, and so
  is one a `--command` the tool ran wrote (`--command` with `--artifact`).
- `knowledge promote` while a task is active in the checkout: 15, nothing written; with no task
  the `knowledge.promoted` line names who promoted as git knows them; `mj-state log` fed a
  promotion line by hand while the task runs refuses it too.
- a `verified` record written by hand under `curated/` is a FAIL in doctor until it is the
  repository's as the task found it.
"""

from __future__ import annotations

import json

from conftest import Repo
from conftest import failures

LEDGER = ".ai/local/state/ledger.jsonl"
CURATED = ".ai/repo/knowledge/curated"
FORGED = """---
schema: knowledge/v1
id: forged-proof
kind: knowledge
class: convention
title: "The parser is proven"
description: "Verified by the worker."
status: verified
epistemics: decided
date: 2026-01-01
provenance:
  origin: extracted
  derived_from:
    - file:README.md
---

# The parser is proven

Verified by the worker.

# Evidence

It works.
"""


def started(repo: Repo) -> None:
    repo.write("docs/guide.md", "# Guide\n")
    repo.commit("docs")
    assert repo.mj("start", "prove it", "--scope", "docs,lib", "--requires", "docs").code == 0


def lines(repo: Repo, event: str) -> list[dict[str, object]]:
    text = (repo.root / LEDGER).read_text()
    return [v for v in map(json.loads, text.splitlines()) if v["event"] == event]


def test_an_artifact_the_task_wrote_is_work_not_proof(layer_repo: Repo) -> None:
    started(layer_repo)
    layer_repo.write("lib/proof.txt", "pass\n")
    args = ("evidence", "--covers", "docs", "--artifact", "lib/proof.txt", "--result", "pass")
    made = layer_repo.mj(*args)
    assert made.code == 15 and "created it since its start" in made.err, made
    layer_repo.commit("the proof")  # committing it in the task's own commits changes nothing
    assert layer_repo.mj(*args).code == 15
    layer_repo.write("docs/guide.md", "# Guide\n\nAll good.\n")
    changed = layer_repo.mj("evidence", "--covers", "docs", "--artifact", "docs/guide.md")
    assert changed.code == 15 and "changed it since its start" in changed.err, changed
    assert lines(layer_repo, "task.evidence") == []
    layer_repo.write("docs/guide.md", "# Guide\n")  # as the start commit holds it: proof
    assert layer_repo.mj("evidence", "--covers", "docs", "--artifact", "docs/guide.md").code == 0


def test_an_artifact_a_command_the_tool_ran_wrote_is_proof(layer_repo: Repo) -> None:
    started(layer_repo)
    write = "python3 -c \"open('docs/report.txt', 'w').write('42')\""
    ran = layer_repo.mj("evidence", "--covers", "docs", "--command", write,
                        "--artifact", "docs/report.txt")  # fmt: skip
    assert ran.code == 0, ran
    (line,) = lines(layer_repo, "task.evidence")
    assert line["artifact"] == "docs/report.txt" and line["exit"] == 0 and line["result"] == "pass"
    idle = layer_repo.mj("evidence", "--covers", "docs", "--command", "python3 -c pass",
                         "--artifact", "docs/report.txt")  # fmt: skip
    assert idle.code == 15 and "not its product" in idle.err, idle


def test_a_worker_cannot_promote_knowledge_or_write_it_verified(layer_repo: Repo) -> None:
    started(layer_repo)
    candidates = layer_repo.root / ".ai/repo/knowledge/candidates"
    candidates.mkdir(parents=True)
    (candidates / "forged-proof.md").write_text(
        FORGED.replace("status: verified", "status: candidate")
    )
    refused = layer_repo.mj("knowledge", "promote", "forged-proof", stdin="it works\n")
    assert refused.code == 15 and "is active in this checkout" in refused.err, refused
    assert (candidates / "forged-proof.md").exists()
    assert not list((layer_repo.root / CURATED).glob("*.md"))
    line = {"kind": "append", "event": "knowledge.promoted", "knowledge": "forged-proof",
            "path": f"{CURATED}/forged-proof.md", "class": "convention"}  # fmt: skip
    summary = {"kind": "summary", "stage": "mj-knowledge promote", "exit": 0, "counts": {}}
    fed = f"{json.dumps(line)}\n{json.dumps(summary)}\n"
    forged_line = layer_repo.run("mj-state", "log", stdin=fed)
    assert forged_line.code == 15 and lines(layer_repo, "knowledge.promoted") == []
    (candidates / "forged-proof.md").unlink()
    layer_repo.write(f"{CURATED}/forged-proof.md", FORGED)  # written by hand, verified
    found = [f for f in failures(layer_repo.mj("doctor").out) if f[0] == "knowledge"]
    assert [f[1] for f in found] == [f"{CURATED}/forged-proof.md"], found
    assert "no knowledge.promoted line names it" in found[0][2]
    layer_repo.commit("commit the forged record in the task's own commits")
    found = [f for f in failures(layer_repo.mj("doctor").out) if f[0] == "knowledge"]
    assert [f[1] for f in found] == [f"{CURATED}/forged-proof.md"], found


def test_a_person_promotes_with_no_task_and_is_named(layer_repo: Repo) -> None:
    candidates = layer_repo.root / ".ai/repo/knowledge/candidates"
    candidates.mkdir(parents=True)
    (candidates / "forged-proof.md").write_text(
        FORGED.replace("status: verified", "status: candidate")
    )
    done = layer_repo.mj("knowledge", "promote", "forged-proof", stdin="the tests pass\n")
    assert done.code == 0, done
    (line,) = lines(layer_repo, "knowledge.promoted")
    assert line["promoted_by"] == "mj-test <mj-test@example.invalid>"
    assert [f for f in failures(layer_repo.mj("doctor").out) if f[0] == "knowledge"] == []


def test_knowledge_check_fails_a_verified_record_without_its_promotion(layer_repo: Repo) -> None:
    started(layer_repo)
    layer_repo.write(f"{CURATED}/forged-proof.md", FORGED)  # written by hand, verified
    for committed in (False, True):
        checked = layer_repo.mj("knowledge", "check")
        assert checked.code == 10, (committed, checked)
        assert "no knowledge.promoted line names it" in checked.out, checked
        assert f"{CURATED}/forged-proof.md" in checked.out, checked
        layer_repo.commit("commit the forged record in the task's own commits")


def test_knowledge_check_passes_a_promoted_record(layer_repo: Repo) -> None:
    candidates = layer_repo.root / ".ai/repo/knowledge/candidates"
    candidates.mkdir(parents=True)
    (candidates / "forged-proof.md").write_text(
        FORGED.replace("status: verified", "status: candidate")
    )
    assert layer_repo.mj("knowledge", "promote", "forged-proof", stdin="the tests pass\n").code == 0
    checked = layer_repo.mj("knowledge", "check")
    assert "no knowledge.promoted line" not in checked.out, checked
