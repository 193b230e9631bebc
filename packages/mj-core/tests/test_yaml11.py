"""YAML 1.1 implicit types without PyYAML, checked against PyYAML's resolver on generated text."""

from __future__ import annotations

import math
import re

import yaml
from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.yaml11 import plain_value
from mj_core.yaml11 import resolve11

RESOLVER = yaml.resolver.Resolver()
PIECES = [
    *"0123456789+-._:eExobXOB \t\nTtZz~<=!&*",
    *("yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "y", "n"),
    *("true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL", "nULL"),
    *(".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN", "<<", "2026", "-01", "-1-1", ":59", ":60"),
    *("0x", "0b", "0o", "1_000", "e+", "e-", "T10:00:00", " 10:00:00", ".5", "+01:00", "a", "é"),
]
STAMP = "2026-01-01T10:00:00Z"


def edited(edits: list[tuple[int, str]]) -> str:
    chars = list(STAMP)
    for index, char in edits:
        chars[index] = char
    return "".join(chars)


stamp_like = st.lists(  # the shapes the tool writes, with up to two positions changed
    st.tuples(st.integers(0, len(STAMP) - 1), st.sampled_from("0-9:TtZz \n.a٣")), max_size=2
).map(edited)
scalar = st.one_of(
    stamp_like,
    stamp_like.map(lambda text: text[:10]),
    st.text(alphabet="0123456789abcdefABCDEFxXoO_", min_size=1, max_size=12),  # SHAs, 0x1F
    st.lists(st.sampled_from(PIECES), max_size=6).map("".join),
    st.text(alphabet="0123456789+-._:eExob \nTZ", max_size=12),
    st.text(max_size=6),
)

KNOWN = {
    "yes": "bool", "Off": "bool", "y": "str", "~": "null", "": "null", "NULL": "null",
    "012": "int", "0o12": "str", "0x1F": "int", "0b101": "int", "1_000": "int",
    "190:20:30": "int", "1:20.5": "float", "1e3": "str", "1.0e+3": "float", "1.0e3": "str",
    ".5": "float", "-.5": "str", "-.inf": "float", ".NaN": "float", "1.": "float",
    "2026-01-01": "timestamp", "2026-1-1 1:00:00.5 +01": "timestamp", "<<": "merge",
    "=": "value", "!": "yaml", "7\n": "int", "yes\n": "bool", "7\n\n": "str", "\n": "str",
}  # fmt: skip


def pyyaml_tag(value: str) -> str:
    tag = RESOLVER.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    return str(tag).removeprefix("tag:yaml.org,2002:")


def test_known_scalars() -> None:
    for value, tag in KNOWN.items():
        assert resolve11(value) == tag == pyyaml_tag(value), value


@settings(max_examples=3000, deadline=None)
@given(scalar)
@example("2026-01-01T10:00:00Z")
@example("2001-12-14t21:59:43.10-05:00")
def test_resolution_equals_pyyaml_resolver(value: str) -> None:
    assert resolve11(value) == pyyaml_tag(value)


def test_plain_value_agreement() -> None:
    assert plain_value("1") == (True, 1)
    assert plain_value("-1.5") == (True, -1.5)
    assert plain_value("1e3") == (False, 1000.0)  # YAML 1.1 reads text
    assert plain_value("yes") == (False, "yes")
    assert plain_value("012") == (False, 12)
    assert plain_value("~") == (True, None)
    assert plain_value("2026-01-01") == (True, "2026-01-01")
    assert plain_value("<<") == (False, "<<")
    assert plain_value("name") == (True, "name")


INT12 = re.compile(r"[-+]?(0|[1-9][0-9]*)")
FLOAT12 = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
BOOL12 = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}


def reference_plain_value(value: str) -> tuple[bool, object]:
    """The agreement check as it was written over PyYAML's resolver."""
    tag11 = pyyaml_tag(value)
    if tag11 == "timestamp":
        return True, value
    if value in {"", "~", "null", "Null", "NULL"}:
        return tag11 == "null", None
    if value in BOOL12:
        return tag11 == "bool", BOOL12[value]
    if INT12.fullmatch(value):
        return tag11 == "int", int(value)
    if FLOAT12.fullmatch(value) and any(c.isdigit() for c in value):
        return tag11 == "float", float(value)
    return tag11 == "str", value


@settings(max_examples=3000, deadline=None)
@given(scalar)
@example("012")
@example("0")
@example("1e3")
def test_plain_value_equals_the_check_over_pyyaml(value: str) -> None:
    mine, reference = plain_value(value), reference_plain_value(value)
    assert mine[0] == reference[0]
    assert type(mine[1]) is type(reference[1])
    if isinstance(mine[1], float) and math.isnan(mine[1]):
        assert isinstance(reference[1], float) and math.isnan(reference[1])
    else:
        assert mine[1] == reference[1]
