"""The candidate record in-process: a derived candidate reads back with no problem, its id is a
function of its evidence, a conversation is caught wherever it stands, and the pointers'
selection walks the issue's levels before the scope, each level in byte order of id."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_knowledge import pointers
from mj_knowledge.derive import judge as harvest
from mj_policy.knowledge import notes

SESSION = "s-20260912101500-7f1a"
TASK = "t-20260912101512-b7c2"
HEAD = "3f2a9c1e4b7d8a05c1119f2b6e0d7a3c8e5f1b42"
WORDS = st.text(st.characters(codec="ascii", categories=("L", "N", "Zs")), min_size=1,
                max_size=60).filter(str.strip)  # fmt: skip


def _episode(title: str, scope: list[str], issue: str | None = None) -> dict[str, Any]:
    return {"session_id": SESSION, "tasks": {TASK: {"issue": issue, "scope": scope}},
            "decisions": [{"decision": title, "task_id": TASK, "head": HEAD,
                           "ts": "2026-09-12T10:15:12Z"}]}  # fmt: skip


def _made(
    title: str, scope: list[str], tracked: set[str], issue: str | None = None
) -> tuple[str, dict[str, Any], str]:
    episode = _episode(title, scope, issue)
    return harvest.candidate(episode, episode["decisions"][0], tracked)


@settings(max_examples=60, deadline=None)
@given(WORDS)
def test_a_derived_candidate_reads_back_with_no_problem(tmp_path_factory: pytest.TempPathFactory,
                                                         title: str) -> None:  # fmt: skip
    root = tmp_path_factory.mktemp("r")
    ident, front, body = _made(title, ["lib", "gone"], {"lib"}, issue="I0801")
    path = f"{notes.CANDIDATES}/{ident}.md"
    (root / notes.CANDIDATES).mkdir(parents=True)
    (root / path).write_bytes(notes.render(front, body))
    note = notes.read(root, path)
    assert note.problems == [] and note.data == front
    assert front["relations"] == [{"type": "references", "target": "file:lib"}]
    assert front["provenance"]["derived_from"][-1] == "issue:I0801"
    assert note.body.strip().startswith(f"# {' '.join(title.split())}")


def test_the_id_is_the_episode_and_a_digest_of_the_evidence() -> None:
    one = _made("refuse tabs", [], set())[0]
    again = _made("refuse  tabs", ["x"], set())[0]  # the same words, a scope git does not track
    other = _made("keep tabs", [], set())[0]
    assert one == again != other
    assert one.startswith(SESSION + "-") and len(one) == len(SESSION) + 1 + harvest.DIGEST


@pytest.mark.parametrize(
    "line",
    [
        "assistant: here is the fix",
        "  - **User**: please do it",
        '{"role": "user", "content": "hi"}',
        "messages = [",
        '{"choices": [{"text": "x"}]}',
        "object: chat.completion",
    ],
)
def test_a_conversation_is_caught_wherever_it_stands(line: str, tmp_path: Path) -> None:
    assert notes.carries_transcript("a claim", f"first\n{line}\nlast")
    _, front, body = _made("x", [], set())
    path = f"{notes.CANDIDATES}/{front['id']}.md"
    (tmp_path / notes.CANDIDATES).mkdir(parents=True)
    (tmp_path / path).write_bytes(notes.render(front, f"{body}\n{line}\n"))
    problems = notes.read(tmp_path, path).problems
    assert len(problems) == 1 and "never a transcript" in problems[0][1]
    assert problems[0][0].startswith(f"{path}:")


@pytest.mark.parametrize(
    "line", ["Tabs are refused in the parser.", "The user manual names the flag.", "role: none"]
)
def test_a_claim_is_not_a_conversation(line: str) -> None:
    assert not notes.carries_transcript(line)


NODES = [[i, i.split(":")[0], p, "", "c", "shared"] for i, p in (
    ("issue:I3", "plan/I3.yaml"), ("issue:I1", "plan/I1.yaml"), ("issue:I2", "plan/I2.yaml"),
    ("milestone:M1", "plan/M1.yaml"), ("document:lib/a.md", "lib/a.md"),
    ("document:z.md", "z.md"), ("policy:policy", "policy.yaml"))]  # fmt: skip
EDGES = [
    ["depends_on", "issue:I3", "issue:I2"], ["depends_on", "issue:I3", "issue:I1"],
    ["part_of", "issue:I3", "milestone:M1"], ["depends_on", "issue:I2", "issue:I1"],
    ["declares", "milestone:M1", "document:z.md"], ["references", "document:lib/a.md",
    "policy:policy"], ["references", "document:lib/a.md", "issue:I1"],
]  # fmt: skip


def _edges(sources: set[str]) -> list[list[str]]:
    return [e for e in EDGES if e[1] in sources]


def test_the_selection_walks_the_issue_then_the_scope_nearest_first() -> None:
    first = pointers.in_scope(NODES, ["lib"])
    chosen = [(p["relation"], p["id"]) for p in pointers.select(NODES, _edges, first, "I3")]
    assert chosen == [
        ("started for", "issue:I3"),
        ("depends_on", "issue:I1"),
        ("depends_on", "issue:I2"),
        ("part_of", "milestone:M1"),
        ("declares", "document:z.md"),
        ("in scope", "document:lib/a.md"),
        ("references", "policy:policy"),  # issue:I1 was chosen nearer
    ]
    alone = [p["id"] for p in pointers.select(NODES, _edges, first, "I9")]
    assert alone == ["document:lib/a.md", "issue:I1", "policy:policy"]
