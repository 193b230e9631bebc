"""`schema.fast.holds(kind)` answers yes exactly when jsonschema's validator and
`schema.quick_violations` find nothing, for every layer kind, on valid data and on data changed
a field at a time (a wrong type, a value outside an enum or a pattern, an empty string or list,
a repeated item, a key missing, a key unknown, a line break inside or at the end)."""

from __future__ import annotations

import jsonschema
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.schema import fast as schemafast
from mj_core.schema import full as schema
from mj_core.yaml.strict import Document

ISSUE = {"id": "I0001", "milestone": "M000", "title": "T", "slug": "t", "priority": "p1",
         "profile": "implementation", "parallel_safe": True, "objective": "O", "why": "W",
         "current_state": "C", "desired_state": "D", "scope": ["lib"], "non_scope": [],
         "depends_on": ["I0002"], "acceptance_criteria": ["a"], "validation": ["make"],
         "evidence_required": [], "risk": "low", "started_at": "2026-12-01T10:00:00Z"}  # fmt: skip
MILESTONE = {"id": "M000", "title": "T", "slug": "t", "order": 0, "priority": "p0",
             "problem": "P", "outcome": "O", "current_state": "C", "desired_state": "D",
             "scope": ["lib"], "non_scope": [], "acceptance_criteria": ["a"],
             "validation": ["make"], "evidence_required": [], "risks": [],
             "created_at": "2026-12-01", "updated_at": "2026-12-01"}  # fmt: skip
ODD = [None, True, False, 0, -1, 1.5, "", "x", "p9", "I1", "M0001", "a\nb", "Bad Slug", [],
       [""], ["x", "x"], ["I0001", 3], [None], {}, {"k": 1}, "2026-12-01T10:00:00Z", "a\n",
       "\n", "a\nb\n", " ", ["a\n"], ["\n"], "p0", 1, ["I0001\n"]]  # fmt: skip


FIELDS = st.sampled_from([*ISSUE, *MILESTONE, "status", "owner", "order"])
CHANGE = st.tuples(FIELDS, st.sampled_from([*ODD, "<drop>"]))


def agrees(kind: str, data: object) -> None:
    quick = schema.quick_violations(Document("f.yaml", data), kind)
    check = schemafast.holds(kind)
    assert check is not None
    assert check(data) == (not quick), (kind, data, quick)
    library = jsonschema.Draft202012Validator(schema.load(kind)).is_valid(data)
    assert check(data) == library, (kind, data)  # and the library judges the same


@settings(max_examples=1500, deadline=None)
@given(
    st.sampled_from([("issue", ISSUE), ("milestone", MILESTONE)]),
    st.lists(CHANGE, max_size=3),
)
def test_the_predicate_agrees_with_the_walk(
    kind_data: tuple[str, dict[str, object]], changes: list[tuple[str, object]]
) -> None:
    kind, base = kind_data
    data = dict(base)
    for key, value in changes:
        if value == "<drop>":
            data.pop(key, None)
        else:
            data[key] = value
    agrees(kind, data)


@pytest.mark.parametrize("kind", ["issue", "milestone", "project", "profile", "policy"])
def test_every_kind_compiles_and_the_valid_examples_hold(kind: str) -> None:
    assert schemafast.holds(kind) is not None
    if kind in ("issue", "milestone"):
        agrees(kind, ISSUE if kind == "issue" else MILESTONE)
    agrees(kind, {})
    agrees(kind, [])
