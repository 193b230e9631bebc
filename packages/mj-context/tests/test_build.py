"""The briefing over generated states and budgets, in-process against the stage functions.

Properties: the text is at most the budget, or the stream carries a FAIL and nothing droppable
is left; every section the profile enables is printed or named under EXCLUDED; text and JSON
carry the same selection; every record survives a JSON round trip.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_context import build
from mj_state import brief_render as render

NOW = "2026-09-03T19:41:02Z"
TASK_ID = "t-20260903193012-a4f1"
LINE = st.text(alphabet="abcdefghij xyz-.", min_size=1, max_size=30).map(str.strip).filter(bool)

# what each section is called when it is named under EXCLUDED
ITEMS = {
    "task": {"task"},
    "profile": {"profile"},
    "documents": {"context documents"},
    "questions": {"open questions"},
    "knowledge": {"knowledge"},
    "decisions": {"decisions"},
    "checkpoint": {"checkpoint"},
    "handover": {"handover"},
    "pointers": {"knowledge pointers"},
    "files": {"files"},
    "history": {"history"},
    "prompt": {"prompt"},
}


def fact(which: str, /, **fields: Any) -> dict[str, Any]:
    return {"kind": "fact", "fact": which, **fields}


def record_of(body: str) -> dict[str, Any]:
    return {
        "path": ".ai/local/state/checkpoints/x.md",
        "created_at": NOW,
        "task_id": TASK_ID,
        "head": "a" * 40,
        "label": "exact",
        "body": body,
    }


@st.composite
def states(draw: st.DrawFn) -> list[dict[str, Any]]:
    context = {
        "task": draw(st.booleans()),
        "decisions": draw(st.booleans()),
        "relevant_files": draw(st.booleans()),
        "architecture_notes": draw(st.booleans()),
        "recent_history_depth": draw(st.integers(0, 60)),
        "knowledge": draw(st.booleans()),
    }
    outcome = draw(st.sampled_from(["active", "active", "completed", None]))
    task = None
    if outcome is not None:
        task = {
            "id": TASK_ID,
            "task": "narrow the parser",
            "profile": "implementation",
            "owner": "o",
            "outcome": outcome,
            "scope": draw(st.lists(LINE, max_size=3)),
            "started_at": NOW,
            "checkpoint_at": NOW,
            "head": "a" * 40,
        }
    profile = {"capability": "standard", "context": context, "output_contract": ["outcome"]}
    bodies = st.lists(LINE | st.just(""), min_size=0, max_size=12).map("\n".join)
    decisions = [
        {
            "date": "2026-09-03",
            "title": t,
            "task": draw(st.sampled_from([TASK_ID, "t-other"])),
            "text": f"## 2026-09-03 — {t}\nWhy: {t}\n",
        }
        for t in draw(st.lists(LINE, max_size=8))
    ]
    facts = [
        fact(
            "git",
            generated_at=NOW,
            repository="/r",
            branch="main",
            head="a" * 40,
            working_tree="dirty",
            worktree="/r",
            worktree_id="w-1",
            repository_id="r-1",
        ),
        fact(
            "policy",
            builder_budget_lines=300,
            recent_decisions=draw(st.integers(0, 6)),
            max_list_items=draw(st.integers(1, 25)),
            checkpoint_interval_default="15m",
            projections=[],
        ),
        fact("task", task=task, label="exact" if task else None, disagreements=[]),
        fact(
            "profile",
            name="implementation",
            exists=task is not None,
            data=profile if task else None,
        ),
        fact(
            "documents",
            chain=[
                {"path": p, "ids": ["ai"], "problem": None} for p in (task or {}).get("scope", [])
            ],
        ),
        fact(
            "questions",
            unresolved=[
                {"question": q, "date": "2026-09-03"} for q in draw(st.lists(LINE, max_size=5))
            ],
        ),
        fact("decisions", entries=decisions),
        fact("checkpoint", record=draw(st.none() | bodies.map(record_of)), problem=None),
        fact("handover", record=draw(st.none() | bodies.map(record_of)), problem=None),
        fact("touched", files=[f"{p}/f{i}" for i, p in enumerate((task or {}).get("scope", []))]),
        fact(
            "knowledge-candidates",
            branch="main",
            here=draw(
                st.lists(
                    st.from_regex(r"s-[0-9]{14}-[0-9a-f]{4}-[0-9a-f]{12}", fullmatch=True),
                    max_size=12,
                )
            ),
            unassigned=draw(st.lists(st.just("note-1"), max_size=2)),
            total=0,
            more="majordomus knowledge candidates",
        ),
        fact(
            "history",
            events=[
                {"ts": NOW, "event": "task.started", "detail": d}
                for d in draw(st.lists(LINE, max_size=30))
            ],
            total=30,
        ),
    ]
    return facts


def enabled(facts: list[dict[str, Any]]) -> set[str]:
    by = {f["fact"]: f for f in facts}
    task = by["task"]["task"]
    if task is None or task["outcome"] != "active":
        return {"task", "knowledge", "checkpoint", "handover"}
    return {
        "task",
        "profile",
        "documents",
        "questions",
        "knowledge",
        "checkpoint",
        "handover",
        "pointers",
        "decisions",
        "files",
        "history",
    }


@settings(max_examples=300, deadline=None)
@given(facts=states(), budget=st.integers(1, 120))
def test_budget_coverage_and_agreement(facts: list[dict[str, Any]], budget: int) -> None:
    out = list(build.build(facts, budget))
    for record in out:
        assert json.loads(json.dumps(record).encode()) == record
    brief = render.Briefing(out)
    text = render.text(brief, None)
    lines = text.count("\n")
    assert lines == brief.budget["lines"]
    failed = [r for r in out if r.get("kind") == "finding" and r["level"] == "FAIL"]
    untrimmed = render.Briefing(build.build(facts, 10**6)).budget["lines"]
    assert lines <= untrimmed  # trimming never lengthens the briefing
    if lines <= budget:
        assert not failed
    else:
        assert failed and failed[0]["reproduce"] == f"majordomus context --budget-lines {budget}"
        # nothing left to drop: what remains may not be removed, or removing it would not
        # shorten the text (its EXCLUDED line costs as much as it saves)
        for s in brief.sections:
            droppable = s["id"] not in ("git", "task", "profile", "questions")
            if droppable and not s["body"][0].startswith("body omitted for budget"):
                degrades = s["id"] in ("checkpoint", "handover")
                saves = len(s["body"]) - 1 if degrades else len(s["body"]) + 2
                assert saves <= (1 if brief.excluded else 3), s
    # a blank line ends a section in the text form, so no body carries one
    assert all(line.strip() for s in brief.sections for line in s["body"])
    shown = {s["id"] for s in brief.sections}
    named = {e["item"] for e in brief.excluded}
    for section in enabled(facts):
        assert section in shown or ITEMS[section] & named, (section, shown, named)
    doc = render.document(brief, None)
    assert [s["id"] for s in doc["sections"]] == [
        s for s in (x["id"] for x in brief.sections) if s not in ("git", "task")
    ]
    for section in doc["sections"]:
        assert section["text"] in text and section["lines"] == section["text"].count("\n")
    for gone in doc["excluded"]:
        assert f"- {gone['item']} — {gone['reason']}\n" in text
    for never in ("git", "task", "profile", "questions"):
        assert never not in brief.budget["dropped"]


def test_the_recorded_budget_case_drops_in_the_spec_order() -> None:
    facts = [
        fact(
            "git",
            generated_at=NOW,
            repository="/r",
            branch="main",
            head="a" * 40,
            working_tree="dirty",
        ),
        fact(
            "policy",
            builder_budget_lines=300,
            recent_decisions=5,
            max_list_items=20,
            checkpoint_interval_default="15m",
            projections=[],
        ),
        fact(
            "task",
            task={
                "id": TASK_ID,
                "task": "t",
                "profile": "implementation",
                "owner": "o",
                "outcome": "active",
                "scope": ["lib"],
                "started_at": NOW,
                "checkpoint_at": NOW,
                "head": "a" * 40,
            },
            label="exact",
        ),
        fact(
            "profile",
            name="implementation",
            exists=True,
            data={
                "context": {
                    "task": True,
                    "decisions": True,
                    "relevant_files": True,
                    "recent_history_depth": 0,
                }
            },
        ),
        fact("documents", chain=[{"path": "lib", "ids": ["ai"], "problem": None}]),
        fact("questions", unresolved=[{"question": "q?", "date": "2026-09-03"}]),
        fact(
            "decisions",
            entries=[{"date": "d", "title": "x", "task": TASK_ID, "text": "## d — x\nTask: t\n"}],
        ),
        fact("checkpoint", record=record_of("the parser now refuses tabs"), problem=None),
        fact("handover", record=None, problem=None),
        fact("touched", files=["lib/a"]),
        fact("history", events=[], total=0),
    ]
    out = list(build.build(facts, 30))
    budget = next(r for r in out if r["kind"] == "budget")
    # a one-line checkpoint body is kept: its reference line and EXCLUDED line would be longer
    assert budget["dropped"] == ["files", "documents", "decisions"]
    checkpoint = next(r for r in out if r.get("id") == "checkpoint")
    assert checkpoint["body"] == ["the parser now refuses tabs"]
    assert out[-1]["kind"] == "finding" and out[-1]["level"] == "FAIL"
    with pytest.raises(Exception, match="over the budget of 30 with nothing left to drop"):
        list(render.render(out, "text", None))


SCHEMAS: dict[str, Any] = {}


def conforms(record: dict[str, Any]) -> None:
    """`record` validates against share/schemas/pipeline/<kind>.json (findings are mj-core's)."""
    import jsonschema
    from mj_core import share

    kind = record["kind"]
    if kind == "finding":
        return
    if kind not in SCHEMAS:
        SCHEMAS[kind] = json.loads(share.read_text("schemas", "pipeline", f"{kind}.json"))
    jsonschema.Draft202012Validator(SCHEMAS[kind]).validate(record)


@settings(max_examples=60, deadline=None)
@given(facts=states(), budget=st.integers(1, 120))
def test_every_record_validates_against_its_pipeline_schema(
    facts: list[dict[str, Any]], budget: int
) -> None:
    out = list(build.build(facts, budget))
    for record in [*facts, *out]:
        conforms(record)
    for record in render.render([r for r in out if r["kind"] != "finding"], "text", None):
        conforms(record)
