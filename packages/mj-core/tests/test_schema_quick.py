from __future__ import annotations

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.schema import full as schema
from mj_core.yaml import strict as yamlstrict

VALID = {
    "id": "t-20260903193012-a4f1",
    "task": "fix OAuth callback",
    "profile": "debugging",
    "owner": "alice",
    "scope": ["lib/auth"],
    "started_at": "2026-09-03T19:30:12Z",
    "checkpoint_at": "2026-09-03T20:02:41Z",
    "outcome": "active",
    "repository_id": "/abs/path/.git",
    "worktree": "/abs/path",
    "branch": "main",
    "head": "3f2a9c1e" * 5,
    "working_tree": "dirty",
}

_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=20),
    st.lists(st.text(max_size=5), max_size=3),
    st.sampled_from(["active", "done", "t-20260903193012-a4f1", "", "clean"]),
)


def _doc(data: dict) -> yamlstrict.Document:
    return yamlstrict.Document("current.yaml", data)


def test_valid_record_has_no_violations() -> None:
    assert schema.quick_violations(_doc(dict(VALID)), "current") == []


@settings(max_examples=200, deadline=None)
@given(
    changes=st.dictionaries(st.sampled_from([*VALID, "extra"]), _VALUES, max_size=4),
    drop=st.sets(st.sampled_from(list(VALID)), max_size=2),
)
def test_quick_agrees_with_jsonschema_on_validity(changes: dict, drop: set) -> None:
    data = {k: v for k, v in {**VALID, **changes}.items() if k not in drop}
    quick = schema.quick_violations(_doc(data), "current")
    full = schema.violations(_doc(data), "current")
    assert bool(quick) == bool(full), (quick, full)


RULE = {
    "id": "majordomus.scope-claims",
    "version": 1,
    "kind": "rule",
    "title": "Claims bound the work",
    "description": "A task touches only what it claimed.",
    "statement": "Touch only the claimed paths.",
    "status": "active",
    "class": "blocking",
    "depends_on": ["majordomus.layer@1"],
    "tags": ["scope"],
}
_RULE_VALUES = st.one_of(
    _VALUES,
    st.sampled_from(["rule", "advisory", "deprecated", "a.b@0", "a.b@2", "Bad", "x\ny", 0, 1]),
    st.lists(st.sampled_from(["a.b@1", "a.b@1", "tag", "Tag", "a.b"]), max_size=3),
)


def test_a_valid_rule_has_no_violations() -> None:
    assert schema.quick_violations(_doc(dict(RULE)), "rule") == []


@settings(max_examples=300, deadline=None)
@given(
    changes=st.dictionaries(st.sampled_from([*RULE, "extra"]), _RULE_VALUES, max_size=4),
    drop=st.sets(st.sampled_from(list(RULE)), max_size=2),
)
def test_quick_agrees_with_jsonschema_on_rule_front_matter(changes: dict, drop: set) -> None:
    data = {k: v for k, v in {**RULE, **changes}.items() if k not in drop}
    quick = schema.quick_violations(_doc(data), "rule")
    full = schema.violations(_doc(data), "rule")
    assert bool(quick) == bool(full), (quick, full)
