"""`majordomus watch` (CLI-REFERENCE §2.7): every drift category produced for real in a scratch
repository, found, and shown again by its own reproduce command."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest
from conftest import Repo

HANDOVER = "# Objective\nShip it.\n# Current State\nHalf done.\n# Next Action\nFinish it.\n"


def _watch(repo: Repo) -> tuple[int, list[dict[str, object]]]:
    result = repo.mj("watch", "--json")
    lines = [json.loads(line) for line in result.out.splitlines()]
    assert lines[-1]["kind"] == "summary", result
    assert result.code in (0, 11), result
    return result.code, lines[:-1]


def _drift(repo: Repo) -> dict[str, list[dict[str, object]]]:
    code, findings = _watch(repo)
    found: dict[str, list[dict[str, object]]] = {}
    for finding in findings:
        if finding["level"] == "DRIFT":
            found.setdefault(str(finding["category"]), []).append(finding)
    assert (code == 11) == bool(found)
    return found


def _reproduces(repo: Repo, finding: dict[str, object], shows: str) -> None:
    """The reproduce command succeeds in the repository and its output shows the drift."""
    result = repo.shell(str(finding["reproduce"]))
    assert result.code == 0, (finding, result)
    assert shows in result.out, (finding, result)


def _edit(repo: Repo, relative: str, old: str, new: str) -> None:
    path = repo.root / relative
    text = path.read_text()
    assert old in text, (relative, old)
    path.write_text(text.replace(old, new, 1))


@pytest.fixture
def working(layer_repo: Repo) -> Repo:
    """Projections written and committed, an active task claiming src/."""
    stages = "mj-policy update-facts | mj-policy update-judge | mj-policy update-write"
    assert layer_repo.shell(stages).code == 0  # `update` without its ledger line
    layer_repo.commit("projections")
    started = layer_repo.mj("start", "--json", "fix the parser", "--scope", "src")
    assert started.code == 0, started
    return layer_repo


def test_a_clean_repository_has_no_drift(working: Repo) -> None:
    result = working.mj("watch")
    assert result.code == 0, result
    assert "DRIFT" not in result.out
    assert result.out.splitlines()[-1] == "watch: 0 finding(s)"
    code, findings = _watch(working)
    assert code == 0
    assert {f["level"] for f in findings} == {"OK"}


def test_every_drift_category_is_found_and_reproduced(working: Repo, tmp_path: Path) -> None:
    repo = working
    state = ".ai/local/state"
    task = (repo.root / state / "current.yaml").read_text().split("id: ", 1)[1].split()[0]
    # state: rewrite the commit the task started on, so its head is no longer an ancestor
    repo.git("commit", "-q", "--amend", "--allow-empty", "--no-verify", "-m", "rewritten")
    # policy: the policy changes what its projections say; retention: the ledger cap drops to 1
    _edit(repo, ".ai/repo/policy.yaml", "default: implementation", "default: debugging")
    _edit(repo, ".ai/repo/policy.yaml", "retention_max_lines: 5000", "retention_max_lines: 1")
    # projection: a hand edit of a generated file
    with (repo.root / "AGENTS.md").open("a") as handle:
        handle.write("hand-written line\n")
    # scope: a file outside the claim
    repo.write("outside.txt", "not in src\n")
    # checkpoint and activity: the task's last checkpoint and last ledger line are older than
    # its interval (a second, waited out below)
    profile = ".ai/repo/profiles/implementation.yaml"
    interval = re.search(r"checkpoint_interval: \S+", (repo.root / profile).read_text())
    assert interval is not None
    _edit(repo, profile, interval.group(0), "checkpoint_interval: 1s")
    ledger = repo.root / state / "ledger.jsonl"
    # ledger: a line that is not JSON, added by hand (the hash chain and its tip break too)
    with ledger.open("a") as handle:
        handle.write("not json\n")
    # decisions: an entry written by hand without Task and Head
    with (repo.root / state / "decisions.md").open("a") as handle:
        handle.write("\n## 2026-01-01 — use tabs\nWhy: taste\n")
    # questions: a line in neither of the two shapes
    with (repo.root / state / "open-questions.md").open("a") as handle:
        handle.write("- [unresolved] what about this?\n")
    # prompts: an asset with a token outside the closed set
    repo.write(
        ".ai/repo/prompts/bad.md", "---\nname: bad\ndescription: broken\n---\nDo {{NOPE}}.\n"
    )
    # records: a checkpoint written in a linked worktree, carried into this one
    repo.git("worktree", "add", "-q", str(tmp_path / "wt"), "-b", "other")
    there = Repo(tmp_path / "wt", repo.env).mj("checkpoint", stdin="elsewhere\n")
    assert there.code == 0, there
    [carried] = (tmp_path / "wt" / state / "checkpoints").glob("*.md")
    shutil.copy(carried, repo.root / state / "checkpoints" / carried.name)
    time.sleep(2.2)

    found = _drift(repo)
    shows = {
        "policy": "`debugging`",
        "projection": "hand-written line",
        "state": "diverged",
        "scope": "outside.txt",
        "checkpoint": "checkpoint_at:",
        "activity": task,
        "retention": "ledger.jsonl",
        "ledger": "not json",
        "decisions": "use tabs",
        "questions": "what about this?",
        "prompts": "{{NOPE}}",
        "records": "worktrees/wt",
    }
    assert set(shows) <= set(found), found
    # the hand-edited projection is outside the scope too: it is not as `update` writes it;
    # so are the layer's files, which no claim of the task names
    layer = [
        ".ai/repo/policy.yaml",
        ".ai/repo/profiles/implementation.yaml",
        ".ai/repo/prompts/bad.md",
    ]
    assert sorted(f["subject"] for f in found["scope"]) == [*layer, "AGENTS.md", "outside.txt"]
    for category, text in shows.items():
        for finding in found[category]:
            _reproduces(repo, finding, finding["subject"] if category == "scope" else text)
    # the policy's drift is each projection whose text the policy changed, AGENTS.md (edited
    # by hand as well) being the projection's drift instead
    assert {f["subject"] for f in found["policy"]} >= {"GEMINI.md", "docs/AI_INSTRUCTIONS.md"}


def test_handover_and_verification_drift(working: Repo, tmp_path: Path) -> None:
    repo = working
    state = ".ai/local/state"
    closed = repo.run("handover", "--close", stdin=HANDOVER)
    assert closed.code == 0, closed
    assert "handover" not in _drift(repo)  # handed over with its handover: consistent
    [record] = (repo.root / state / "handovers").glob("*.md")
    # a required section removed from the handover
    _edit(repo, f"{state}/handovers/{record.name}", "# Next Action\nFinish it.\n", "")
    [lacking] = _drift(repo)["handover"]
    assert "lacks Next Action" in str(lacking["message"])
    _reproduces(repo, lacking, "# Current State")
    # no handover names the task at all
    record.rename(tmp_path / record.name)
    [absent] = _drift(repo)["handover"]
    _reproduces(repo, absent, "no handover names")
    # a terminal outcome that finish never recorded
    _edit(repo, f"{state}/current.yaml", "outcome: handed_over", "outcome: completed")
    [unverified] = _drift(repo)["verification"]
    _reproduces(repo, unverified, "no task.finished line")
    # an outcome the ledger contradicts: active again after a closing handover
    _edit(repo, f"{state}/current.yaml", "outcome: completed", "outcome: active")
    [contradiction] = _drift(repo)["state"]
    assert "current.yaml says active, the ledger says handed_over" in str(contradiction["message"])
    _reproduces(repo, contradiction, "task.handed_over")


def test_text_lines_carry_the_reproduce_suffix_and_the_summary(working: Repo) -> None:
    working.write("outside.txt", "x\n")
    result = working.mj("watch")
    assert result.code == 11, result
    [line] = [x for x in result.out.splitlines() if x.startswith("DRIFT")]
    assert line.startswith(
        "DRIFT scope       outside.txt — outside claimed scope (src)  [reproduce: "
    )
    assert result.out.splitlines()[-1] == "watch: 1 finding(s)"


def test_without_a_layer_watch_is_12(git_repo: Repo) -> None:
    result = git_repo.mj("watch")
    assert result.code == 12, result
    assert len(result.err.splitlines()) == 1
