"""YAML 1.1 implicit types without PyYAML, and the agreement of YAML 1.1 and 1.2 on a scalar.

The oracles are the libraries: PyYAML's resolver for the 1.1 types; yamlcore's (PyYAML with
YAML 1.2's core schema) for the 1.2 types; PyYAML, libyaml, yamlcore and ruamel.yaml (under
YAML 1.2 and 1.1) for the value an agreed plain scalar has.
"""

from __future__ import annotations

import datetime
import os
import string
from typing import Any

import yaml
import yamlcore  # type: ignore[import-untyped]
from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.yaml.scalars import plain_value
from mj_core.yaml.scalars import resolve11
from mj_core.yaml.scalars import resolve12
from ruamel.yaml import YAML

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
    st.text(alphabet=string.hexdigits + "xXoO_", min_size=1, max_size=12),  # SHAs, 0x1F
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


def test_scalars_without_a_digit_are_decided_without_the_number_patterns() -> None:
    from mj_core.yaml import scalars as yaml11

    yaml11._compiled.clear()
    for value in (".", "-", "+", "..", "-.", "+.inf", "-.Inf", ".INF", "--.inf", ".nan", "-.nan"):
        assert resolve11(value) == pyyaml_tag(value), value
    assert yaml11._compiled == {}


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
    assert plain_value("1e3") == (False, "1e3")  # YAML 1.1 reads text, 1.2 a float
    assert plain_value("yes") == (False, "yes")
    assert plain_value("y") == (False, "y")  # a YAML 1.1 boolean, though PyYAML omits it
    assert plain_value("012") == (False, "012")
    assert plain_value("0o17") == (False, "0o17")  # YAML 1.2 octal
    assert plain_value("1.0.2") == (True, "1.0.2")  # text to every parser (the writer quotes it)
    assert plain_value("-_") == (False, "-_")  # ruamel.yaml's integer pattern takes it
    assert plain_value("~") == (True, None)
    assert plain_value("2026-01-01") == (True, "2026-01-01")
    assert plain_value("2001-02-30") == (False, "2001-02-30")
    assert plain_value(str(2**63)) == (False, str(2**63))
    assert plain_value(str(-(2**63))) == (True, -(2**63))
    assert plain_value("1" * 5000) == (False, "1" * 5000)  # no int() of 5,000 digits
    assert plain_value("1.0e+999") == (False, "1.0e+999")
    assert plain_value("<<") == (False, "<<")
    assert plain_value("name") == (True, "name")


def _ruamel(version: str) -> Any:
    loader = YAML(typ="safe", pure=True)
    return lambda text: loader.load(f"%YAML {version}\n---\n{text}")


LIBRARIES = {
    "pyyaml": lambda text: yaml.load(text, Loader=yaml.SafeLoader),
    "libyaml": lambda text: yaml.load(text, Loader=yaml.CSafeLoader),
    "yamlcore": lambda text: yaml.load(text, Loader=yamlcore.CoreLoader),
    "ruamel 1.2": _ruamel("1.2"),
    "ruamel 1.1": _ruamel("1.1"),
}


def _is_plain_scalar(value: str) -> bool:
    """True when PyYAML reads `a: <value>` as one plain scalar spelled `value`."""
    try:
        node = yaml.compose(f"a: {value}\n", Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return False
    if node is None or len(node.value) != 1:
        return False
    scalar = node.value[0][1]
    return isinstance(scalar, yaml.ScalarNode) and scalar.style is None and scalar.value == value


def _as_text(value: object) -> object:
    if isinstance(value, datetime.datetime):
        moment = value.astimezone(datetime.UTC).replace(tzinfo=None)
        return moment.isoformat(timespec="seconds") + "Z"
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


@settings(max_examples=int(os.environ.get("MJ_FUZZ_EXAMPLES", "0")) or 3000, deadline=None)
@given(scalar)
@example("012")
@example("0o17")
@example("y")
@example("-_")
@example("2001-02-30")
@example("9223372036854775808")
@example("-0o0")  # ruamel.yaml reads a signed octal as a number
def test_an_agreed_plain_scalar_is_that_value_to_every_library(value: str) -> None:
    agreed, mine = plain_value(value)
    if not agreed or not _is_plain_scalar(value):
        return
    for name, load in LIBRARIES.items():
        theirs = _as_text(load(f"a: {value}\n")["a"])
        assert type(theirs) is type(mine), (name, value, theirs)
        assert theirs == mine, (name, value, theirs)


CORE = yamlcore.CoreLoader("")  # PyYAML with YAML 1.2's core schema (package yamlcore)


def core_tag(value: str) -> str:
    tag = CORE.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    return str(tag).removeprefix("tag:yaml.org,2002:")


@settings(max_examples=int(os.environ.get("MJ_FUZZ_EXAMPLES", "0")) or 3000, deadline=None)
@given(scalar.filter(lambda value: value and not value.endswith("\n")))  # a plain scalar's end
@example("0o17")
@example("+0o17")
@example("0b1")
@example("0x1F")
@example("+12")
@example("1e3")
@example(".5e3")
@example("-.INF")
@example(".NaN")
@example("+.nan")
@example("1.")
@example("-_")
@example("2026-01-01")
def test_yaml12_resolution_equals_the_core_schema_library(value: str) -> None:
    """resolve12 against yamlcore's core-schema resolver (ruamel.yaml's 1.2 resolver reads
    more than the core schema: `0b1`, `+0o7`, underscores, timestamps)."""
    assert resolve12(value) == core_tag(value)
