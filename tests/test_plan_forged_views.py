"""A plan view never vouches for what `plan validate` refuses: a lifecycle marker written by
hand (a forged DONE) makes every view that derives a status exit 10 with the FAIL that names
the marker, in text and in JSON, and never from a kept listing."""

from __future__ import annotations

import json

import pytest
from conftest import Repo
from conftest import failures
from test_plan import BASE
from test_plan import DONE
from test_plan import PROJECT
from test_plan import issue
from test_plan import milestone

VIEWS = [("status",), ("list",), ("show", "I0001"), ("ready",), ("blocked",), ("waves",),
         ("graph",), ("next",)]  # fmt: skip


@pytest.fixture
def forged(layer_repo: Repo) -> Repo:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    issue(layer_repo, "I0001")
    issue(layer_repo, "I0002", "I0001")
    layer_repo.commit("a plan")
    for view in VIEWS:  # each listing kept while the plan was honest
        assert layer_repo.mj("plan", *view).code == 0
    issue(layer_repo, "I0001", extra=DONE)  # the worker's one-line script: DONE by hand
    return layer_repo


def test_validate_refuses_the_forged_marker(forged: Repo) -> None:
    result = forged.mj("plan", "validate")
    assert result.code == 10, result
    assert any("completed_at" in f[2] for f in failures(result.out)), result.out


@pytest.mark.parametrize("view", VIEWS, ids=" ".join)
def test_a_view_of_a_forged_plan_exits_10_naming_the_marker(
    forged: Repo, view: tuple[str, ...]
) -> None:
    result = forged.mj("plan", *view)
    assert result.code == 10, result
    named = [f for f in failures(result.out) if "completed_at" in f[2]]
    assert named and "I0001.yaml" in named[0][1], result.out
    assert named[0][3] == "majordomus plan validate", named


@pytest.mark.parametrize("view", [("status",), ("next",)], ids=" ".join)
def test_the_json_stream_carries_the_fail_and_exit_10(forged: Repo, view: tuple[str, ...]) -> None:
    result = forged.mj("plan", *view, "--json")
    assert result.code == 10, result
    records = [json.loads(line) for line in result.out.splitlines()]
    assert any(r.get("kind") == "finding" and r.get("level") == "FAIL" for r in records), records
    assert records[-1]["kind"] == "summary" and records[-1]["exit"] == 10, records[-1]


def test_the_honest_plan_is_shown_with_exit_0(forged: Repo) -> None:
    issue(forged, "I0001")  # the forged line removed: the plan as committed
    for view in (("status",), ("next",)):
        result = forged.mj("plan", *view)
        assert result.code == 0, result
        assert "FAIL" not in result.out, result.out
