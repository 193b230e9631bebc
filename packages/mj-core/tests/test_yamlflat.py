"""The flat reader against the library and the strict reader: whenever `yaml.flat.read` accepts
a text, the data is exactly what PyYAML's safe loader and `yaml.strict.parse` give (types
included); a text the strict reader refuses is
never accepted. Texts are lines of keys and values built from YAML's awkward scalars, quotes,
flow sequences, comments, indentation and markers; a plan file as written is accepted. A text
of `key: value` lines only, which the reader takes without looking at each line's shape, reads
as it does line by line, the second time (from the reader's memory of values) too."""

from __future__ import annotations

import math

import pytest
import yaml
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.errors import MjError
from mj_core.yaml import flat as yamlflat
from mj_core.yaml import strict as yamlstrict
from mj_core.yaml.fast import _Decline

NASTY = [
    *("yes", "No", "on", "y", "n", "~", "null", "true", "False", "012", "0x1F", "1_000"),
    *("1:20", "1e3", ".5", "-.inf", ".NaN", "+1", "-1", "0", "1.", "2026-01-01", "2026-02-30"),
    *("2026-01-01T10:00:00Z", "<<", "!", "&a", "*a", "-", "- x", "-x", "---", "...", "a: b"),
    *("a:b", "a:", "#x", "a #b", "a#b", "'q'", '"q"', "'it''s'", '"a\\"b"', '"\\x41"', '"\\q"'),
    *("[x]", "[]", "[ ]", "[a, b]", "[a,,b]", "[a,]", "[,a]", "['a', b]", '["a,b"]', "[a] #c"),
    *("[a]]", "[[a]]", "[a #b]", "[a:b]", "[?]", "{x}", "a, b", "?", ":", "|", ">", "%", "@x"),
    *("`x`", "x ", " x", "", "ü", "tab\there", "cr\rx", "\u2028", "I0001", "p0", "v1.2"),
    *('"unterminated', "'unterminated", '"x" y', '"x" #c', "x  # c", "\ufeffx"),
]
keys = st.one_of(
    st.sampled_from(["id", "title", "depends_on", "scope", "y", "no", "null", "'q'", '"k"']),
    st.sampled_from(["a b", "-k", ".k", "#k", "k:", "k ", "x" * 3, "on", "1", "~", "K"]),
    st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True),
)
values = st.one_of(st.sampled_from(NASTY), st.text(max_size=6))
usual = st.sampled_from(
    [
        "x",
        "I0001",
        '"a b"',
        "[a, b]",
        "[]",
        "p0",
        "true",
        "3",
        "'q'",
        "2026-01-01",
        "[I0001,I0002]",
        '["make test"]',
        "a # c",
        "src/x.py",
    ]
)
usual_line = st.tuples(
    st.from_regex(r"[a-z_][a-z0-9_]{0,4}", fullmatch=True), st.just(": "),
    st.one_of(usual, usual, values),
).map("".join)  # fmt: skip
line = st.one_of(
    usual_line,
    usual_line,
    st.tuples(keys, st.sampled_from([": ", ":  ", ":", ": "]), values).map("".join),
    st.sampled_from(["", "# note", "  # indented note", "   ", "  nested: 1", "- item", "---"]),
)


def _typed(value: object) -> object:
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(item) for item in value]
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    return (type(value).__name__, value)


# PyYAML's safe loader (libyaml's parser where built) with the one change the layer's reader
# documents (docs/FORMATS.md): a timestamp stays the text it is
_Loader = type(
    "_Loader",
    (getattr(yaml, "CSafeLoader", yaml.SafeLoader),),
    {
        "yaml_implicit_resolvers": {
            first: [(tag, rx) for tag, rx in found if tag != "tag:yaml.org,2002:timestamp"]
            for first, found in yaml.SafeLoader.yaml_implicit_resolvers.items()
        }
    },
)


def _library(text: str) -> object:
    return _typed(yaml.load(text, Loader=_Loader))


def _strict(text: str) -> object:
    try:
        return _typed(yamlstrict.parse(text, "f.yaml").data)
    except MjError:
        return "refused"


@settings(max_examples=3000, deadline=None)
@given(st.lists(line, max_size=8), st.booleans())
def test_what_the_flat_reader_accepts_the_strict_reader_reads_the_same(
    lines: list[str], newline: bool
) -> None:
    text = "\n".join(lines) + ("\n" if newline else "")
    flat = yamlflat.read(text)
    if flat is not None:
        assert _typed(flat) == _strict(text), text
        assert _typed(flat) == _library(text), text  # and the library reads the same


def test_a_plan_file_as_written_is_read_flat() -> None:
    text = (
        "id: I0006\nmilestone: M000\ntitle: Issue 6\npriority: p0\nparallel_safe: true\n"
        'objective: "Build part 6."\nscope: [src/pkg_000/mod_00006.py]\nnon_scope: []\n'
        'depends_on: [I0005, I0004]\nacceptance_criteria: ["part 6 works", \'and "this"\']\n'
        "# a comment\n\nstarted_at: 2026-11-02T10:00:00Z\norder: 3\n"
    )
    for _ in range(2):  # a second time through the memories of keys and scalars
        flat = yamlflat.read(text)
        assert flat is not None and _typed(flat) == _strict(text) == _library(text)
    assert flat["depends_on"] == ["I0005", "I0004"] and flat["order"] == 3


def test_a_nested_or_empty_value_is_left_to_the_full_reader() -> None:
    for text in ("a:\n  b: 1\n", "a:\n- x\n", "a:\n", "a: # c\n", "---\na: 1\n", "", "\n"):
        assert yamlflat.read(text) is None, text


pair_key = st.one_of(
    st.from_regex(r"[a-z_][a-z0-9_]{0,4}", fullmatch=True),
    st.sampled_from(["y", "n", "no", "on", "off", "yes", "null", "true", "k" * 1001]),
)
pair_value = st.one_of(usual, values, values.map(lambda v: v + "  "), st.text(max_size=4))
pair_line = st.tuples(pair_key, st.sampled_from([": ", ":  "]), pair_value).map("".join)


def _by_line(text: str) -> object:
    try:
        return _typed(yamlflat._lines(text))
    except _Decline:
        return _typed(None)


@settings(max_examples=3000, deadline=None)
@given(st.lists(pair_line, min_size=1, max_size=8), st.booleans())
def test_key_value_lines_read_as_they_read_line_by_line(lines: list[str], newline: bool) -> None:
    text = "\n".join(lines) + ("\n" if newline else "")
    for _ in range(2):  # the second time from the memory of values
        flat = yamlflat.read(text)
        if text.replace("\n", "").isprintable():
            assert _typed(flat) == _by_line(text), text
        if flat is not None:
            assert _typed(flat) == _strict(text), text


def test_a_plan_file_is_read_without_the_line_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    text = 'id: I0001\nscope: [src/a.py, src/b.py]\nnon_scope: []\nwhy: "it is"\norder: 3  \n'
    monkeypatch.setattr(yamlflat, "_lines", None)  # called, it would fail the test
    first, second = yamlflat.read(text), yamlflat.read(text)
    assert first == second == {"id": "I0001", "scope": ["src/a.py", "src/b.py"],
                               "non_scope": [], "why": "it is", "order": 3}  # fmt: skip
    assert first is not None and second is not None
    first["scope"].append("changed")  # each reading's lists are its own
    third = yamlflat.read(text)
    assert third is not None and second["scope"] == ["src/a.py", "src/b.py"] == third["scope"]
    assert yamlflat.read("id: I0001\nid: I0002\n") is None  # a key written twice


def test_a_full_memory_of_values_starts_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlflat, "_VALUES", {f"v{i}": i for i in range(8192)})
    assert yamlflat.read("a: [x]\nb: v1\n") == {"a": ["x"], "b": "v1"}
    assert yamlflat._VALUES == {"[x]": ("x",)}
