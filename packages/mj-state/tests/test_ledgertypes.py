"""`ledger.typed.all_typed` (the whole ledger's check, asked of an event's lines at once where it
can) says of any list of decoded lines what `mistyped` says line by line: a field of another
type than declared anywhere makes it False, whichever event holds it."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_state.ledger import typed as ledgertypes

TS = "2026-01-01T00:00:00Z"
# the envelope is all strings; the first few events' fields too, the others mix types
EVENTS = ["task.checkpoint", "decision.recorded", "session.started", "task.started",
          "task.finished", "task.handed_over", "task.evidence"]  # fmt: skip
KEYS = ["head", "prev", "task_id", "checkpoint_path", "decision", "scope", "closed", "exit",
        "outcome", "contract", "rules", "seconds", "note"]  # fmt: skip
SCALARS = st.one_of(st.text(max_size=3), st.integers(), st.booleans(), st.none(), st.floats(0, 1))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=2), inner),
    max_leaves=4,
)


def line(event: str, **fields: object) -> dict[str, object]:
    return {"ts": TS, "event": event, **fields}


def by_line(values: list[dict[str, object]]) -> bool:
    return all(ledgertypes.mistyped(value) is None for value in values)


def test_the_all_string_events_are_the_ones_declared_so() -> None:
    plain = ledgertypes._all_strings()
    assert {"task.checkpoint", "decision.recorded", "session.started"} <= plain
    assert not {"task.started", "task.finished", "task.handed_over"} & plain


def test_a_wrong_field_of_an_all_string_event_is_found_among_many_right_lines() -> None:
    right = [line("task.checkpoint", head="h", checkpoint_path=f"c/{n}.md") for n in range(500)]
    assert ledgertypes.all_typed(right)
    for wrong in (3, None, ["c.md"], {"p": "c.md"}, True, 1.5):
        values = [*right[:250], line("task.checkpoint", checkpoint_path=wrong), *right[250:]]
        assert not ledgertypes.all_typed(values), wrong


def test_a_wrong_field_of_another_event_is_found_when_every_string_line_is_right() -> None:
    right = [line("task.checkpoint", checkpoint_path="c.md"), line("task.started", scope=["a"])]
    assert ledgertypes.all_typed(right)
    assert not ledgertypes.all_typed([*right, line("task.started", scope=["a", 1])])
    assert not ledgertypes.all_typed([*right, line("task.handed_over", closed="yes")])


def test_an_undeclared_field_of_any_type_is_not_a_type_error() -> None:
    """What `mistyped` leaves to the declared-keys judge is left alone here too."""
    values = [line("task.checkpoint", checkpoint_path="c.md", extra=7)]
    assert ledgertypes.all_typed(values) and by_line(values)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(EVENTS), st.dictionaries(st.sampled_from(KEYS), VALUES)),
        max_size=8,
    )
)
def test_the_whole_list_is_judged_as_each_line_is(drawn: list[tuple[str, dict[str, Any]]]) -> None:
    values = [json.loads(json.dumps(line(event, **fields))) for event, fields in drawn]
    assert ledgertypes.all_typed(values) == by_line(values)
    # the events handed in by a reader that has them give the same verdict
    assert ledgertypes.all_typed(values, [v["event"] for v in values]) == by_line(values)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(EVENTS), st.dictionaries(st.sampled_from(KEYS), VALUES))
def test_a_decoded_line_is_judged_as_mistyped_judges_it(event: str, fields: dict[str, Any]) -> None:
    """The reader's check (one join for an all-string event) says what `mistyped` says."""
    value = json.loads(json.dumps(line(event, **fields)))
    assert ledgertypes.decoded_mistyped(value) == ledgertypes.mistyped(value)


def test_a_decoded_line_of_an_all_string_event_with_a_number_is_named() -> None:
    value = line("task.checkpoint", checkpoint_path=3)
    assert ledgertypes.decoded_mistyped(value) == ledgertypes.mistyped(value) is not None
    undeclared = line("task.checkpoint", checkpoint_path="c.md", extra=7)
    assert ledgertypes.decoded_mistyped(undeclared) is None
