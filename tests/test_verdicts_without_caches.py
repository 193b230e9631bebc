"""No cache changes a verdict: every judge's output — `plan ready`, `plan status`,
`plan validate` (and the listings as JSON), `history --validate`, `finish --check` — is byte for
byte the same, with the same exit code, whether `.ai/local/cache/` holds what the runs before
left or nothing at all; on a sound plan and on one with a defect."""

from __future__ import annotations

import shutil

import pytest
from conftest import Repo
from test_plan import BASE
from test_plan import DONE
from test_plan import PROJECT
from test_plan import issue
from test_plan import milestone

JUDGES = [
    ("plan", "ready"),
    ("plan", "status"),
    ("plan", "validate"),
    ("plan", "list", "--json"),
    ("plan", "blocked", "--json"),
    ("history", "--validate"),
    ("finish", "--check"),
]


def outputs(repo: Repo) -> dict[str, tuple[int, str, str]]:
    said = {}
    for argv in JUDGES:
        result = repo.mj(*argv)
        said[" ".join(argv)] = (result.code, result.out, result.err)
    return said


@pytest.mark.parametrize("defect", ["", "status: DONE\n", "depends_on an unknown issue"])
def test_every_judge_says_the_same_with_and_without_its_caches(
    layer_repo: Repo, defect: str
) -> None:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    issue(layer_repo, "I0001", extra=DONE)
    issue(layer_repo, "I0002", "I0001")
    issue(layer_repo, "I0003", "I0001")
    deps = "I0009" if defect.startswith("depends_on") else "I0002, I0003"
    issue(layer_repo, "I0004", deps, extra=defect if defect.startswith("status") else "")
    layer_repo.commit("a plan")
    assert layer_repo.mj("start", "work on I0002", "--scope", "lib").code == 0
    cache = layer_repo.root / ".ai/local/cache"
    outputs(layer_repo)  # the caches written
    assert cache.is_dir() and any(cache.iterdir())
    warm = outputs(layer_repo)
    for argv in JUDGES:  # each judge alone on no cache at all
        shutil.rmtree(cache, ignore_errors=True)
        result = layer_repo.mj(*argv)
        assert (result.code, result.out, result.err) == warm[" ".join(argv)], argv
    assert warm["plan ready"][0] == (10 if defect else 0), warm["plan ready"]
