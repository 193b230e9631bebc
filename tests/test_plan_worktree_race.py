"""`plan start` across the worktrees of one clone: each worktree has its own issue files and
ledger, so the claim lives in git's common directory (`<common>/majordomus/`). Of N worktrees
that start one issue at once exactly one wins; every other is refused (15) naming the holder;
every ledger stays a valid chain with one `plan.started` per issue across them all. A lock
left by a process killed while holding it is found stale and taken; `plan done` releases the
claim; `--take-over` takes it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Repo
from conftest import exe
from test_plan import BASE
from test_plan import PROJECT
from test_plan import issue
from test_plan import milestone

WORKTREES = 4
ROUNDS = 3
HOLD = """
import fcntl, json, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
os.write(fd, json.dumps({"pid": os.getpid(), "started": "x", "worktree": "killed"}).encode())
print("held", flush=True)
time.sleep(60)
"""


@pytest.fixture
def clone(layer_repo: Repo, tmp_path: Path) -> tuple[Repo, list[Repo]]:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    for number in range(1, ROUNDS + 2):
        issue(layer_repo, f"I000{number}")
    layer_repo.commit("a plan")
    trees = []
    for index in range(WORKTREES):
        path = tmp_path / f"wt{index}"
        layer_repo.git("worktree", "add", "-q", str(path), "-b", f"work{index}")
        trees.append(Repo(path, layer_repo.env))
    return layer_repo, trees


def _started(tree: Repo) -> list[dict[str, object]]:
    ledger = tree.root / ".ai/local/state/ledger.jsonl"
    if not ledger.exists():
        return []
    lines = [json.loads(line) for line in ledger.read_text().splitlines() if line.strip()]
    return [line for line in lines if line.get("event") == "plan.started"]


def _at_once(trees: list[Repo], *args: str) -> list[tuple[int, str, str]]:
    procs = [
        subprocess.Popen(
            [exe("majordomus"), *args],
            cwd=tree.root,
            env=tree.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for tree in trees
    ]
    return [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in procs]  # type: ignore[union-attr]


def test_of_worktrees_starting_one_issue_at_once_exactly_one_wins(
    clone: tuple[Repo, list[Repo]],
) -> None:
    _, trees = clone
    for number in range(1, ROUNDS + 1):
        ident = f"I000{number}"
        results = _at_once(trees, "plan", "start", ident)
        winners = [i for i, (code, _, _) in enumerate(results) if code == 0]
        assert len(winners) == 1, results
        holder = trees[winners[0]].root
        for index, (code, out, err) in enumerate(results):
            if index == winners[0]:
                continue
            assert code == 15, results[index]
            assert f"plan start {ident}: held by the worktree {holder} of this clone" in err, err
            assert out == "", out
        started = [line for tree in trees for line in _started(tree) if line["issue"] == ident]
        assert len(started) == 1, started
    for tree in trees:  # every ledger a chain, every line whole
        checked = tree.mj("history", "--validate")
        assert checked.code == 0, checked


def test_a_later_start_elsewhere_is_refused_until_done_releases_it(
    clone: tuple[Repo, list[Repo]],
) -> None:
    _, (first, second, *_) = clone
    assert first.mj("plan", "start", "I0001").code == 0
    refused = second.mj("plan", "start", "I0001")
    assert refused.code == 15 and str(first.root) in refused.err, refused
    assert first.mj("plan", "done", "I0001").code == 0
    assert second.mj("plan", "start", "I0001").code == 0  # released: free again


def test_take_over_takes_the_claim_and_names_whom_from(clone: tuple[Repo, list[Repo]]) -> None:
    main, (first, second, *_) = clone
    assert first.mj("plan", "start", "I0002").code == 0
    assert second.mj("plan", "start", "I0002", "--take-over").code == 0
    claim = Path(main.git("rev-parse", "--git-common-dir").strip())
    claim = (main.root / claim).resolve() / "majordomus/plan-claims/I0002.json"
    doc = json.loads(claim.read_text())
    assert doc["worktree"] == str(second.root) and doc["took_over"]["worktree"] == str(first.root)
    assert first.mj("plan", "start", "I0002").code == 15  # now the second holds it


def test_a_lock_left_by_a_killed_process_is_found_stale_and_taken(
    clone: tuple[Repo, list[Repo]],
) -> None:
    main, (first, *_) = clone
    common = (main.root / main.git("rev-parse", "--git-common-dir").strip()).resolve()
    (common / "majordomus").mkdir(exist_ok=True)
    lock = common / "majordomus/plan.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(lock)], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    holder.kill()  # SIGKILL: no exit path of its own runs
    holder.wait()
    result = first.mj("plan", "start", "I0001")
    assert result.code == 0, result
    assert f"pid {holder.pid}" in result.out and "ended without releasing it" in result.out
    assert lock.read_text() == ""  # released again on the way out
