"""`rotation.held_from` names the active task's start as a walk over every line in order would:
the newest `task.started`, unless a later line of the same task ends it (a finish, a closing
hand-over); lines that are not objects are passed over."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_state.ledger import rotation


def walked(values: list[Any]) -> int | None:
    """Every line in order: a start takes the place of the one before, its end clears it."""
    started: tuple[int, object] | None = None
    for index, value in enumerate(values):
        if type(value) is not dict:
            continue
        if value.get("event") == "task.started":
            started = (index, value.get("task_id"))
        elif started is not None and value.get("task_id") == started[1]:
            ends = value.get("event") == "task.finished" or (
                value.get("event") == "task.handed_over" and bool(value.get("closed"))
            )
            if ends:
                started = None
    return None if started is None else started[0]


EVENTS = ["task.started", "task.finished", "task.handed_over", "task.checkpoint"]
LINE = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {"event": st.sampled_from(EVENTS)},
        optional={"task_id": st.sampled_from(["t-1", "t-2", None]), "closed": st.booleans()},
    ),
)


def test_the_newest_open_start_is_held() -> None:
    values = [
        {"event": "task.started", "task_id": "t-1"},
        {"event": "task.finished", "task_id": "t-1"},
        {"event": "task.started", "task_id": "t-2"},
        {"event": "task.handed_over", "task_id": "t-2", "closed": False},
        {"event": "task.finished", "task_id": "t-1"},
    ]
    assert rotation.held_from(values) == 2
    assert rotation.held_from([*values, {"event": "task.finished", "task_id": "t-2"}]) is None
    assert rotation.held_from([None, {"event": "task.checkpoint"}]) is None


@settings(max_examples=300, deadline=None)
@given(st.lists(LINE, max_size=12))
def test_the_start_held_is_the_one_a_walk_in_order_finds(values: list[Any]) -> None:
    assert rotation.held_from(values) == walked(values)
