"""The plan in the briefing (`mj-policy plan-brief`, `mj_context.plan_sections`): PLAN ISSUE, the
issue the active task works on with its dependencies' state and the evidence it lacks, after
PROFILE; READY NEXT, the issues that can start now, a derived listing dropped early; both in
the text and the JSON form, within the budget."""

from __future__ import annotations

import json

import pytest
from conftest import Repo
from test_plan import BASE
from test_plan import DONE
from test_plan import PROJECT
from test_plan import issue
from test_plan import milestone


@pytest.fixture
def planned(layer_repo: Repo) -> Repo:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    issue(layer_repo, "I0001", extra=DONE)
    issue(layer_repo, "I0002", "I0001")
    issue(layer_repo, "I0003", "I0001, I0002")
    issue(layer_repo, "I0004", priority="p0")
    text = (layer_repo.root / f"{BASE}/issues/I0003.yaml").read_text(encoding="utf-8")
    text = text.replace("evidence_required: []", "evidence_required: [suite, docs]")
    layer_repo.write(f"{BASE}/issues/I0003.yaml", text)
    layer_repo.commit("a plan")
    return layer_repo


def test_the_briefing_names_the_issue_its_dependencies_and_what_is_ready(planned: Repo) -> None:
    assert planned.mj("start", "the third part", "--issue", "I0003").code == 0
    shown = planned.mj("context")
    assert shown.code == 0, shown
    out = shown.out
    assert (
        "## PLAN ISSUE (the task's; majordomus plan body I0003)\n"
        "I0003 BLOCKED  Issue I0003\n"
        "milestone    M000 ACTIVE\n"
        f"record       {BASE}/issues/I0003.yaml\n"
        "depends on   waits on 1 of 2\n"
        "- I0001 DONE  Issue I0001\n"
        "- I0002 READY  Issue I0002\n"
        "evidence     missing suite, docs\n"
    ) in out
    assert (
        "## READY NEXT (2 READY, in the order work takes them)\n"
        "- I0004 p0 M000  Issue I0004\n"
        "- I0002 p1 M000  Issue I0002\n"
    ) in out
    order = [out.index(t) for t in ("## PROFILE", "## PLAN ISSUE", "## READY NEXT", "## BUDGET")]
    assert order == sorted(order)
    document = json.loads(planned.mj("context", "--json").out)
    sections = {s["id"]: s["text"] for s in document["sections"]}
    assert sections["plan-issue"] in out and sections["plan-ready"] in out


def test_a_tight_budget_drops_what_is_ready_and_shortens_the_issue(planned: Repo) -> None:
    assert planned.mj("start", "the third part", "--issue", "I0003").code == 0
    full = planned.mj("context").out
    lines = full.count("\n")
    tight = planned.mj("context", "--budget-lines", str(lines - 12))
    assert (
        "- ready next — context budget" in tight.out and "run: majordomus plan ready" in tight.out
    )
    assert "## READY NEXT" not in tight.out
    squeezed = planned.mj("context", "--budget-lines", "30").out
    assert "I0003 BLOCKED  Issue I0003\nbody omitted for budget — majordomus plan body I0003\n" in (
        squeezed
    )
    assert "- plan issue body — context budget 30 lines" in squeezed


def test_without_an_issue_only_what_is_ready_and_a_defect_in_one_line(planned: Repo) -> None:
    assert planned.mj("start", "other work", "--scope", "lib").code == 0
    out = planned.mj("context").out
    assert "## PLAN ISSUE" not in out and "## READY NEXT (2 READY" in out
    assert planned.mj("finish", "--outcome", "partial", "--note", "-", stdin=NOTE).code == 0
    assert planned.mj("start", "the third part", "--issue", "I0003").code == 0
    issue(planned, "I0002", "I0009")  # a dependency nobody declared
    told = planned.mj("context")
    assert told.code == 0, told  # the plan's defect is the section's, not the briefing's
    assert "## PLAN ISSUE\nthe plan does not hold: " in told.out
    assert "unknown-dependency" in told.out and "run `majordomus plan validate`" in told.out
    assert "## READY NEXT" not in told.out


def test_no_plan_no_plan_sections(layer_repo: Repo) -> None:
    assert layer_repo.mj("start", "work", "--scope", "lib").code == 0
    out = layer_repo.mj("context").out
    assert "PLAN" not in out and "READY NEXT" not in out and "ready next" not in out


NOTE = "# Objective\nPlan.\n# Current State\nHalf.\n# Next Action\nThe rest.\n"
