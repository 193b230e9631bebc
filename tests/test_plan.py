"""`majordomus plan` (CLI-REFERENCE §2.25), the read side: every status derived from the
lifecycle markers and the dependency graph, waves as Kahn layers, the graph as Mermaid, and
every defect of the model named by file and line (10), no plan or an unknown id 12."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import Repo
from conftest import failures

PROJECT = "schema_version: 1\nname: Demo\nrepository: demo/demo\ndefault_branch: main\n"
MILESTONE = """id: {id}
title: Outcome {id}
slug: outcome-{slug}
order: {order}
priority: p0
problem: "Nothing works."
outcome: "It works."
current_state: "Broken."
desired_state: "Working."
scope: [lib]
non_scope: []
acceptance_criteria: ["the parser parses"]
validation: ["make test"]
evidence_required: [{required}]
risks: []
created_at: 2026-12-01
updated_at: 2026-12-01
{extra}"""
ISSUE = """id: {id}
milestone: {milestone}
title: Issue {id}
slug: issue-{slug}
priority: {priority}
profile: implementation
parallel_safe: {parallel}
objective: "Do {id}."
why: "Because."
current_state: "Not done."
desired_state: "Done."
scope: [lib/{slug}]
non_scope: []
depends_on: [{deps}]
acceptance_criteria: [{accept}]
validation: ["make test"]
evidence_required: []
risk: "low"
{extra}"""
BASE = ".ai/repo/project"
NOTE = "# Objective\nPlan.\n# Current State\nHalf.\n# Next Action\nThe rest.\n"
STARTED = "started_at: 2026-12-01T10:00:00Z\n"
VERIFIED = STARTED + "verified_at: 2026-12-01T11:00:00Z\n"
DONE = VERIFIED + "completed_at: 2026-12-01T12:00:00Z\n"


def milestone(repo: Repo, ident: str, order: int = 0, required: str = "", extra: str = "") -> None:
    text = MILESTONE.format(
        id=ident, slug=ident.lower(), order=order, required=required, extra=extra
    )
    repo.write(f"{BASE}/milestones/{ident}.yaml", text)


def issue(
    repo: Repo, ident: str, deps: str = "", *, name: str | None = None, **fields: str
) -> None:
    values = {"milestone": "M000", "extra": "", "parallel": "true", "accept": '"it works"'}
    values |= {"priority": "p1", **fields}
    text = ISSUE.format(id=ident, slug=ident.lower(), deps=deps, **values)
    repo.write(f"{BASE}/issues/{name or ident}.yaml", text)


@pytest.fixture
def planned(layer_repo: Repo) -> Repo:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    issue(layer_repo, "I0001")
    issue(layer_repo, "I0002", "I0001")
    issue(layer_repo, "I0003", "I0001")
    issue(layer_repo, "I0004", "I0002, I0003")
    return layer_repo


def _statuses(repo: Repo) -> dict[str, str]:
    out = repo.mj("plan", "list").out
    return {m[0]: m[1] for m in re.findall(r"^(I\d+)\s+(\w+)", out, re.M)}


def test_statuses_are_derived_from_markers_and_dependencies(planned: Repo) -> None:
    assert planned.mj("plan", "validate").code == 0
    assert _statuses(planned) == {"I0001": "READY", "I0002": "BLOCKED", "I0003": "BLOCKED",
                                  "I0004": "BLOCKED"}  # fmt: skip
    issue(planned, "I0001", extra=STARTED)
    planned.commit("started")  # a marker written by hand counts once git holds it
    assert _statuses(planned)["I0001"] == "ACTIVE"
    issue(
        planned,
        "I0001",
        extra="started_at: 2026-12-01T10:00:00Z\nverified_at: 2026-12-01T11:00:00Z\n",
    )
    planned.commit("verified")
    assert _statuses(planned)["I0001"] == "VERIFY"
    issue(planned, "I0001", extra=DONE)
    issue(planned, "I0003", "I0001", extra="cancelled: true\n")
    planned.commit("done, and one cancelled")
    assert _statuses(planned) == {"I0001": "DONE", "I0002": "READY", "I0003": "CANCELLED",
                                  "I0004": "BLOCKED"}  # fmt: skip
    blocked = planned.mj("plan", "blocked").out
    assert "I0004" in blocked and "waits on I0002 READY, I0003 CANCELLED" in blocked
    status = planned.mj("plan", "status")
    assert status.code == 0 and "M000   ACTIVE" in status.out, status
    assert "active milestone: M000" in status.out


def test_a_milestone_is_done_when_its_issues_are_and_its_evidence_covers_it(planned: Repo) -> None:
    for ident, deps in (
        ("I0001", ""),
        ("I0002", "I0001"),
        ("I0003", "I0001"),
        ("I0004", "I0002, I0003"),
    ):
        issue(planned, ident, deps, extra=DONE)
    milestone(planned, "M000", required="suite")
    assert "M000   ACTIVE" in planned.mj("plan", "status").out  # its token is not covered
    evidence = 'evidence:\n  - covers: suite\n    type: test\n    command: "make test"\n'
    evidence += '    result: "all passed"\n    commit: abcdef1\n'
    evidence += "    recorded_at: 2026-12-01T12:00:00Z\n"
    milestone(planned, "M000", required="suite", extra=evidence)
    assert "M000   DONE" in planned.mj("plan", "status").out
    assert planned.mj("plan", "next").code == 12  # nothing READY


def test_waves_are_kahn_layers_and_a_serial_issue_stands_alone(planned: Repo) -> None:
    waves = planned.mj("plan", "waves")
    assert waves.out.splitlines() == ["wave 1: I0001", "wave 2: I0002 I0003", "wave 3: I0004"]
    issue(planned, "I0003", "I0001", parallel="false")
    assert planned.mj("plan", "waves").out.splitlines() == [
        "wave 1: I0001", "wave 2: I0002", "wave 3: I0003", "wave 4: I0004"]  # fmt: skip
    issue(planned, "I0001", extra=DONE)
    planned.commit("I0001 done")  # a marker written by hand counts once git holds it
    assert planned.mj("plan", "waves").out.splitlines()[0] == "wave 1: I0002"


def test_waves_warn_of_a_ready_issue_whose_scope_an_active_task_claims(
    planned: Repo, tmp_path: Path
) -> None:
    issue(planned, "I0002", "I0001", extra=STARTED)  # ACTIVE: not sent to anyone again
    issue(planned, "I0001", extra=DONE)  # so I0003 is READY, scope lib/i0003
    planned.commit("progress")
    other = tmp_path / "other"
    planned.git("worktree", "add", "-q", str(other), "-b", "other")
    from conftest import Repo as Checkout

    elsewhere = Checkout(other, planned.env)
    assert elsewhere.mj("start", "overlapping work", "--scope", "lib").code == 0
    waves = planned.mj("plan", "waves")
    assert waves.code == 0, waves  # a WARN: reported, never blocking
    assert waves.out.splitlines()[0] == "wave 1: I0002 I0003"
    assert "I0002 —" not in waves.out  # ACTIVE: somebody has it; only READY ones are warned of
    assert (
        "WARN overlap     I0003 — READY, but its scope lib/i0003 meets the claim lib" in waves.out
    )
    assert "(../other)" in waves.out or "other)" in waves.out
    assert planned.mj("start", "here", "--scope", "docs").code == 0
    mine = planned.mj("plan", "waves")
    assert "this checkout" not in mine.out  # docs meets no ready issue's scope
    assert planned.mj("finish", "--outcome", "partial", "--note", "-", stdin=NOTE).code == 0
    assert planned.mj("start", "mine", "--scope", "lib/i0003/x").code == 0
    assert "meets the claim lib/i0003/x of task" in planned.mj("plan", "waves").out


def test_the_graph_is_mermaid_with_every_edge_and_status(planned: Repo) -> None:
    graph = planned.mj("plan", "graph").out.splitlines()
    assert graph[0] == "flowchart TD"
    edges = sorted(line.strip() for line in graph if "-->" in line)
    assert edges == ["I0001 --> I0002", "I0001 --> I0003", "I0002 --> I0004", "I0003 --> I0004"]
    assert '  I0001["I0001 Issue I0001<br/>READY"]' in graph
    assert "  class I0002,I0003,I0004 blocked" in graph


def test_next_show_body_and_a_milestone_filter(planned: Repo) -> None:
    milestone(planned, "M001", order=1)
    issue(planned, "I0005", milestone="M001", priority="p0")
    nxt = planned.mj("plan", "next")
    assert nxt.code == 0 and nxt.out.startswith("I0001 "), nxt  # milestone order before priority
    only = planned.mj("plan", "list", "--milestone", "M001").out
    assert only.startswith("I0005") and "I0001" not in only
    assert planned.mj("plan", "ready", "--milestone", "M009").code == 12
    shown = planned.mj("plan", "show", "I0004")
    assert shown.code == 0 and shown.out.startswith(
        f"{BASE}/issues/I0004.yaml (BLOCKED)\nid: I0004"
    )
    body = planned.mj("plan", "body", "I0002").out
    assert (
        body.startswith("# I0002 — Issue I0002 (BLOCKED)")
        and "## Acceptance criteria\n- it works" in body
    )
    assert planned.mj("plan", "show", "I0099").code == 12
    assert planned.mj("plan", "body").code == 2


@pytest.mark.parametrize(
    ("change", "cls", "where"),
    [
        (lambda r: issue(r, "I0001", "I0004"), "cycle", "issues/I0001.yaml:14"),
        (lambda r: issue(r, "I0002", "I0009"), "unknown-dependency", "issues/I0002.yaml:14"),
        (lambda r: issue(r, "I0002", "I0002"), "self-dependency", "issues/I0002.yaml:14"),
        (lambda r: issue(r, "I0001", name="I0007"), "duplicate-id", "issues/I0007.yaml:1"),
        (
            lambda r: issue(r, "I0002", "I0001", extra="started_at: 2026-12-01T10:00:00Z\n"),
            "ahead-of-dependency",
            "issues/I0002.yaml:19",
        ),
        (lambda r: issue(r, "I0002", "I0001", accept=""), "placeholder", "issues/I0002.yaml:15"),
        (
            lambda r: issue(r, "I0002", "I0001", milestone="M042"),
            "unknown-milestone",
            "issues/I0002.yaml:2",
        ),
        (
            lambda r: issue(r, "I0002", "I0001", extra="status: DONE\n"),
            "unknown-key",
            "issues/I0002.yaml",
        ),
    ],
)
def test_each_defect_is_named_with_file_and_line(
    planned: Repo, change, cls: str, where: str
) -> None:
    change(planned)
    result = planned.mj("plan", "validate")
    assert result.code == 10, result
    found = failures(result.out)
    assert any(f[2].startswith(cls) and f[1].startswith(f"{BASE}/{where}") for f in found), found
    refused = planned.mj("plan", "list")
    assert refused.code == 10 and "run `majordomus plan validate`" in refused.err, refused


def test_no_plan_is_12(layer_repo: Repo) -> None:
    result = layer_repo.mj("plan")
    assert result.code == 12 and "keeps no plan" in result.err and result.err.count("\n") == 1
