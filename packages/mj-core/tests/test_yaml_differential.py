"""The strict reader against four YAML libraries: what it accepts, each reads to the same value.

The oracles are PyYAML's pure-Python `SafeLoader` and its libyaml `CSafeLoader` (YAML 1.1),
yamlcore's `CoreLoader` (PyYAML with YAML 1.2's core schema), and ruamel.yaml's pure-Python safe
loader (YAML 1.2, and YAML 1.1 under a `%YAML 1.1` directive, which types `y`/`n` as the 1.1
specification does). No code of ours judges the result: a text the strict reader accepts must
load under all four, to a value equal to the reader's (a date or a moment compared as the text
the reader keeps); a text it refuses must be named with line and column. Texts are generated
inside the subset and just outside it (tags and anchors on keys and values, byte-order marks,
Unicode line breaks, tabs, scalars the two YAML versions type apart, impossible dates, huge
integers, deep nesting, directives).

`tox -e fuzz` runs the same properties with many more examples (`MJ_FUZZ_EXAMPLES`).
"""

from __future__ import annotations

import datetime
import math
import os
import re

import pytest
import yaml
import yamlcore  # type: ignore[import-untyped]
from hypothesis import HealthCheck
from hypothesis import event
from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.errors import ContractUnmet
from mj_core.yaml import events as yamlevents
from mj_core.yaml import strict as yamlstrict
from ruamel.yaml import YAML

EXAMPLES = int(os.environ.get("MJ_FUZZ_EXAMPLES", "0"))
WHERE = re.compile(r"^d\.yaml:(\d+):(\d+): \S")


def budget(default: int) -> settings:
    return settings(
        max_examples=EXAMPLES or default,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


def _ruamel() -> YAML:
    loader = YAML(typ="safe", pure=True)
    loader.allow_duplicate_keys = False
    return loader


RUAMEL = _ruamel()


def _plain(value: object, dates: str = "str") -> object:
    """A library's value in the reader's terms: a date or a moment is the text the reader keeps
    (a moment in UTC, `YYYY-MM-DDTHH:MM:SSZ`), tagged `dates`; every other leaf is tagged with
    its type."""
    if isinstance(value, dict):
        return {_plain(k, dates): _plain(v, dates) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(item, dates) for item in value]
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.UTC).replace(tzinfo=None)
        return (dates, value.isoformat(timespec="seconds") + "Z")
    if isinstance(value, datetime.date):
        return (dates, value.isoformat())
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    return (type(value).__name__, value)


def as_yaml11(text: str) -> str:
    """`text` under a `%YAML 1.1` directive: ruamel.yaml then reads YAML 1.1 as its
    specification types it (`y` and `n` are booleans, which PyYAML leaves out)."""
    body = text.removeprefix("\ufeff")
    marked = re.search(r"^---(?:[ \r]|$)", body, re.M)  # the one document's start marker
    return "%YAML 1.1\n" + ("" if marked else "---\n") + body


def libraries(text: str) -> dict[str, object]:
    return {
        "pyyaml": yaml.load(text, Loader=yaml.SafeLoader),
        "libyaml": yaml.load(text, Loader=yaml.CSafeLoader),
        "yamlcore": yaml.load(text, Loader=yamlcore.CoreLoader),
        "ruamel 1.2": RUAMEL.load(text),
        "ruamel 1.1": RUAMEL.load(as_yaml11(text)),
    }


def check(text: str) -> bool:
    """The property for one text; True when the reader accepted it."""
    try:
        doc = yamlstrict.parse(text, "d.yaml")
    except ContractUnmet as exc:
        assert WHERE.match(exc.message), exc.message
        assert "\n" not in exc.message
        line = int(WHERE.match(exc.message).group(1))  # type: ignore[union-attr]
        assert 1 <= line <= text.count("\n") + 2, exc.message
        return False
    try:
        events = yamlevents.parse(text, "d.yaml")[0]  # the reader behind the line reader
    except ContractUnmet as exc:
        raise AssertionError(
            f"the line reader accepted what the event reader refuses: {exc}"
        ) from None
    for name, value in libraries(text).items():
        assert _plain(doc.data) == _plain(value), (name, text)
        assert _plain(events) == _plain(value), (name, text)
    return True


WORDS = st.from_regex(r"[a-zA-Z_][a-zA-Z0-9_./ -]{0,8}", fullmatch=True)
TYPED = [
    *("y", "Y", "n", "N", "yes", "No", "on", "OFF", "true", "False", "TRUE", "null", "~", "Null"),
    *("0", "-0", "+1", "7", "012", "00", "-012", "0o17", "0x1F", "0b101", "1_000", "1:20"),
    *("190:20:30", "1.5", "1.", ".5", "-.5", "+.5", "1e3", "1.0e+3", "1.0e-3", "1.0e+999"),
    *(".inf", "-.inf", ".nan", ".NaN", "1.2.3", "9223372036854775807", "9223372036854775808"),
    *("-9223372036854775808", "-9223372036854775809", "1" * 25, "2001-02-28", "2001-02-30"),
    *("2000-02-29", "1900-02-29", "2026-01-01T10:00:00Z", "2026-01-01T24:00:00Z", "0000-01-01"),
    *("2026-01-01 10:00:00", "2026-1-1", "2026-01-01t10:00:00z", "<<", "=", "-", "--", "a b"),
    *("it's", "x:y", "a#b", "é", "日本", "😀", "a\u00a0b", "15m", "v1.0.2", "C:\\x", "http://x"),
    *(".", "._", "-_", ".5_", "...", "~x", "./lib", "0?", "x?"),
]
PLAIN = st.one_of(WORDS, WORDS, st.sampled_from(TYPED))
RAW = st.text(st.characters(blacklist_categories=("Cs",)), max_size=6)
ESCAPES = st.sampled_from(["\\n", "\\t", "\\\\", '\\"', "\\x41", "\\u00e9", "\\N", "\\_", "\\/"])
DECOR = st.sampled_from(
    ["", "", "", "", "", "", "!foo ", "!!str ", "!!int ", "!!bool ", "!!binary ", "&a ", "! "]
)
SEPARATOR = st.sampled_from([": ", ": ", ": ", ": ", ":  ", ":\t", " : "])
TAIL = st.sampled_from(["", "", "", "", " # c", "  #x", "\t", " \t", " # a\tb", " #\u2028 k: 1"])


CLEAN_TAIL = st.sampled_from(["", "", "", " # c", "  #x", "  "])
CLEAN_SEPARATOR = st.sampled_from([": ", ": ", ":  "])


@st.composite
def scalar(draw: st.DrawFn, hostile: bool = True) -> str:
    style = draw(st.sampled_from(["plain", "plain", "plain", "single", "double", "escaped"]))
    text = draw(st.one_of(PLAIN, RAW) if hostile else PLAIN)
    if style == "single":
        return "'" + text.replace("'", "''") + "'"
    if style == "double":
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if style == "escaped":
        return '"' + draw(ESCAPES) + text.replace("\\", "").replace('"', "") + '"'
    return text


def block(draw: st.DrawFn, indent: int, depth: int, hostile: bool) -> list[str]:
    """Lines of a block mapping or sequence at `indent`; `hostile` mixes in what is refused."""
    pad = " " * indent
    decor = DECOR if hostile else st.just("")
    tail = TAIL if hostile else CLEAN_TAIL
    lines: list[str] = []
    entries = draw(st.booleans())
    for _ in range(draw(st.integers(1, 3))):
        if entries:
            lead = pad + "-"
        else:
            name = draw(st.one_of(WORDS, WORDS, WORDS, scalar(hostile)))
            separator = draw(SEPARATOR if hostile else CLEAN_SEPARATOR)
            lead = pad + draw(decor) + name + separator.rstrip(" ")
        kind = draw(st.sampled_from(["scalar", "scalar", "scalar", "flow", "block"]))
        if kind == "block" and depth < 3:
            lines.append(lead + draw(tail))
            step = draw(st.sampled_from([1, 2, 4]))
            lines += block(draw, indent + step, depth + 1, hostile)
        elif kind == "flow":
            items = draw(st.lists(scalar(hostile), max_size=3))
            lines.append(f"{lead} [{', '.join(items)}]{draw(tail)}")
        else:
            lines.append(f"{lead} {draw(decor)}{draw(scalar(hostile))}{draw(tail)}")
    return lines


HOSTILE = st.sampled_from(["\ufeff", "\u2028", "\u2029", "\x85", "\t", "\r", "&x ", "!t ", "*x"])
HEADS = st.sampled_from(["", "", "", "---\n", "\ufeff", "%YAML 1.1\n---\n", "# h\n"])
ENDS = st.sampled_from(["\n", "\n", "", "\n...\n", "\n---\nb: 2\n"])


@st.composite
def document(draw: st.DrawFn) -> str:
    """Half the documents in the subset's spirit, half with what it refuses mixed in."""
    hostile = draw(st.booleans())
    head = draw(HEADS) if hostile else draw(st.sampled_from(["", "---\n", "# h\n", "\ufeff"]))
    end = draw(ENDS) if hostile else draw(st.sampled_from(["\n", "", "\n\n# e\n"]))
    text = head + "\n".join(block(draw, 0, 0, hostile)) + end
    if hostile and draw(st.integers(0, 2)) == 0:  # one hostile piece at any place
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(HOSTILE) + text[at:]
    if draw(st.integers(0, 9)) == 0:
        text = text.replace("\n", "\r\n")
    return text


@budget(1500)
@given(document())
@example("!foo version: 1\n")
@example("!!binary aGVsbG8=: x\n")
@example('!!bool "yes": a\n')
@example('a: !!int "7"\n')
@example("a:\n\ufeff  b: c\n")
@example("# reviewed\u2028  required_for_changes: false\n")
@example("a:\tb\n")
@example("a: b\t\n")
@example("a: y\n")
@example("a: 0o17\n")
@example("a: 2001-02-30\n")
@example("a: " + "1" * 4400 + "\n")
@example("".join(" " * i + "k:\n" for i in range(500)))
@example('a: "x\\/y"\n')
@example("%YAML 1.2\n---\na: 1\n")
def test_what_the_reader_accepts_every_library_reads_alike(text: str) -> None:
    event("accepted" if check(text) else "refused")


NEAR_PIECES = [*" \n-:#'\"[],{}&*!|>%@`?\\ab01._~=<yn", "  ", "\n  ", "- ", ": ", "\t"]
NEAR = st.lists(st.sampled_from([*NEAR_PIECES, "\ufeff", "\u2028"]), max_size=30).map("".join)


@budget(1500)
@given(NEAR)
def test_raw_text_near_the_subset(text: str) -> None:
    event("accepted" if check(text) else "refused")


@pytest.mark.parametrize("depth", [63, 64, 65, 1000])
def test_nesting_is_limited_to_64_levels(depth: int) -> None:
    text = "".join(" " * i + "k:\n" for i in range(depth)) + " " * depth + "k: 1\n"
    accepted = check(text)
    assert accepted == (depth < 64)


values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**63), 2**63 - 1),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=12),
        st.sampled_from(TYPED),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.one_of(st.text(min_size=1, max_size=6), PLAIN), inner, min_size=1, max_size=3
        ),
    ),
    max_leaves=10,
)


@budget(800)
@given(
    st.dictionaries(
        st.one_of(st.text(min_size=1, max_size=8), PLAIN), values, min_size=1, max_size=4
    )
)
def test_every_library_reads_what_the_writer_writes_as_it_was(data: dict[str, object]) -> None:
    try:
        text = yamlstrict.dump(data)
    except ValueError:
        return  # outside the writer (nested sequences, empty mappings)
    for name, value in libraries(text).items():  # a date the writer left plain is no string
        assert _plain(value, dates="date") == _plain(data), (name, text)
    assert yamlstrict.parse(text, "d.yaml").data == data
