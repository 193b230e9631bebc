"""The type expressions of `share/events.yaml`, compiled: held equal to jsonschema (the
library) on every JSON value, except that a fraction with no fractional part (`1.0`) is not
an integer here (the ledger's readers take an integer as Python's `int`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core import json_types as jsontypes

EXPRESSIONS = [
    "string",
    "integer",
    "number",
    "boolean",
    "null",
    "object",
    "array",
    "string|null",
    "object|null",
    "array<string>",
    "array<string|integer>",
    "object<integer>",
    "object<array<integer>>",
    "array<object<string>>|string",
]


def schema_of(expression: str) -> dict:
    """The JSON Schema an expression means."""
    options = []
    for alternative in jsontypes._alternatives(expression):
        outer, _, rest = alternative.partition("<")
        if not rest:
            options.append({"type": outer})
        elif outer == "array":
            options.append({"type": "array", "items": schema_of(rest[:-1])})
        else:
            options.append({"type": "object", "additionalProperties": schema_of(rest[:-1])})
    return {"anyOf": options}


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not f.is_integer())
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(expression=st.sampled_from(EXPRESSIONS), value=JSON)
def test_a_compiled_type_agrees_with_jsonschema(expression: str, value: object) -> None:
    import jsonschema

    expected = jsonschema.Draft202012Validator(schema_of(expression)).is_valid(value)
    assert jsontypes.compile_type(expression).holds(value) is expected


def test_true_is_not_an_integer_and_one_point_nought_is_not_either() -> None:
    integer = jsontypes.compile_type("integer")
    assert integer.holds(3) and not integer.holds(True) and not integer.holds(1.0)
    assert jsontypes.compile_type("number").holds(1.5)
    assert not jsontypes.compile_type("number").holds(False)


@pytest.mark.parametrize(
    "expression",
    ["", "str", "string|", "|null", "array<", "array<string", "array<>", "list<string>",
     "string<integer>", "array<string>|array<integer>", "object>"],
)  # fmt: skip
def test_a_wrong_expression_is_refused_by_name(expression: str) -> None:
    with pytest.raises(ValueError, match="type"):
        jsontypes.compile_type(expression)


def test_shown_names_the_json_type() -> None:
    assert [jsontypes.shown(v) for v in ("a", 1, 1.5, True, None, [], {})] == [
        "string", "integer", "number", "boolean", "null", "array", "object"
    ]  # fmt: skip
