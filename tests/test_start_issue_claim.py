"""`start --issue` takes the same claim among a clone's worktrees that `plan start` takes (in
git's common directory): two worktrees of one clone cannot both start one issue, whichever of
the two commands each uses; the claim ends with the task."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Repo
from test_plan import BASE
from test_plan import PROJECT
from test_plan import issue
from test_plan import milestone


@pytest.fixture
def two(layer_repo: Repo, tmp_path: Path) -> tuple[Repo, Repo]:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    issue(layer_repo, "I0001")
    layer_repo.commit("a plan")
    trees = []
    for index in range(2):
        path = tmp_path / f"wt{index}"
        layer_repo.git("worktree", "add", "-q", str(path), "-b", f"work{index}")
        trees.append(Repo(path, layer_repo.env))
    return trees[0], trees[1]


def test_start_issue_in_two_worktrees_one_wins(two: tuple[Repo, Repo]) -> None:
    first, second = two
    assert first.mj("start", "take it", "--issue", "I0001").code == 0
    refused = second.mj("start", "take it too", "--issue", "I0001")
    assert refused.code == 15, refused
    assert "I0001" in refused.err and str(first.root) in refused.err, refused
    assert not (second.root / ".ai/local/state/current.yaml").exists()


def test_start_issue_then_plan_start_elsewhere_is_refused(two: tuple[Repo, Repo]) -> None:
    first, second = two
    assert first.mj("start", "take it", "--issue", "I0001").code == 0
    refused = second.mj("plan", "start", "I0001")
    assert refused.code == 15 and str(first.root) in refused.err, refused


def test_plan_start_then_start_issue_elsewhere_is_refused(two: tuple[Repo, Repo]) -> None:
    first, second = two
    assert first.mj("plan", "start", "I0001").code == 0
    refused = second.mj("start", "mine now", "--issue", "I0001")
    assert refused.code == 15 and str(first.root) in refused.err, refused


def test_the_claim_ends_with_the_task(two: tuple[Repo, Repo]) -> None:
    first, second = two
    assert first.mj("start", "take it", "--issue", "I0001").code == 0
    closed = first.mj("finish", "--outcome", "blocked", "--note", "-",
                      stdin="# Next Action\n\nThe parser waits for the grammar.\n")  # fmt: skip
    assert closed.code == 0, closed
    assert second.mj("start", "take it after", "--issue", "I0001").code == 0
