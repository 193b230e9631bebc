from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.errors import ContractUnmet
from mj_core.errors import MjError
from mj_core.errors import Refused
from mj_core.exit_codes import ExitCode
from mj_core.yaml import strict as yamlstrict

REFUSED = [
    ("anchor", "a: 1\nb: &x 2\n", 2, 4, "anchor &x"),
    ("alias", "a: &x 1\n", 1, 4, "anchor"),
    ("alias only", "b:\n  - *x\n", 2, 5, "alias"),
    ("flow mapping", "a: 1\nb: {c: 1}\n", 2, 4, "flow mapping"),
    ("literal block", "a: |\n  text\n", 1, 4, "block scalar '|'"),
    ("folded block", "a: >\n  text\n", 1, 4, "block scalar '>'"),
    ("tag", "a: !!str 1\n", 1, 4, "tag"),
    ("custom tag", "a: !thing x\n", 1, 4, "tag"),
    ("merge key", "base:\n  x: 1\nother:\n  <<: 1\n", 4, 3, "merge key"),
    ("duplicate key", "a: 1\nb: 2\na: 3\n", 3, 1, "duplicate key 'a'"),
    ("nested duplicate", "a:\n  b: 1\n  b: 2\n", 3, 3, "duplicate key 'b'"),
    ("two documents", "a: 1\n---\nb: 2\n", 2, 1, "more than one document"),
    ("colon in plain scalar", "a: b: c\n", 1, 5, "mapping values"),
    ("backtick", "a: `cmd`\n", 1, 4, "cannot start"),
    ("percent", "a: %x\n", 1, 4, "cannot start"),
    ("at sign", "a: @x\n", 1, 4, "cannot start"),
    ("nested brackets", "a: [x, [y]]\n", 1, 8, "nested brackets"),
    ("yes is ambiguous", "a: yes\n", 1, 4, "read differently"),
    ("octal-looking", "a: 0755\n", 1, 4, "read differently"),
    ("non-string key", "1: x\n", 1, 1, "not a string"),
    ("tag on a key", "!foo version: 1\n", 1, 1, "tag !foo"),
    ("binary tag on a key", "!!binary aGVsbG8=: x\n", 1, 1, "tag tag:yaml.org,2002:binary"),
    ("bool tag on a key", '!!bool "yes": a\n', 1, 1, "tag tag:yaml.org,2002:bool"),
    ("int tag on a value", 'a: !!int "7"\n', 1, 4, "tag tag:yaml.org,2002:int"),
    ("anchor on a key", "&k a: 1\n", 1, 1, "anchor &k"),
    ("byte-order mark inside", "a:\n\ufeff  b: c\n", 2, 1, "byte-order mark"),
    ("line separator", "# ok\u2028  k: 1\n", 1, 5, "U+2028"),
    ("next line", "a: b\x85\n", 1, 5, "U+0085"),
    ("paragraph separator", "a: 'b\u2029'\n", 1, 6, "U+2029"),
    ("lone carriage return", "a: b\rc: d\n", 1, 5, "carriage return"),
    ("tab after a colon", "a:\t1\n", 1, 3, "a tab outside quotes"),
    ("tab at a line end", "a: 1\t\n", 1, 5, "a tab outside quotes"),
    ("tab in a comment", "a: 1 # x\ty\n", 1, 9, "a tab outside quotes"),
    ("YAML 1.1 y", "a: y\n", 1, 4, "'y' is read differently"),
    ("YAML 1.1 off", "a: off\n", 1, 4, "'off' is read differently"),
    ("YAML 1.2 octal", "a: 0o17\n", 1, 4, "'0o17' is read differently"),
    ("YAML 1.1 octal", "a: 012\n", 1, 4, "'012' is read differently"),
    ("underscores", "a: 1_000\n", 1, 4, "'1_000' is read differently"),
    ("sexagesimal", "a: 190:20:30\n", 1, 4, "read differently"),
    ("underscore after a sign", "a: -_\n", 1, 4, "'-_' is read differently"),
    ("impossible date", "a: 2001-02-30\n", 1, 4, "does not exist"),
    ("impossible time", "a: 2001-02-28T24:00:00Z\n", 1, 4, "does not exist"),
    ("other date shape", "a: 2001-02-28 10:00:00\n", 1, 4, "read differently"),
    ("over 64 bits", "a: 9223372036854775808\n", 1, 4, "64-bit range"),
    ("4,400 digits", "a: " + "7" * 4400 + "\n", 1, 4, "64-bit range"),
    ("infinite float", "a: 1.0e+999\n", 1, 4, "not a finite number"),
    ("hexadecimal", "a: 0x1F\n", 1, 4, "not written in decimal"),
    ("directive", "%YAML 1.1\n---\na: 1\n", 1, 1, "directive"),
    ("65 levels", "".join(" " * i + "k:\n" for i in range(65)) + " " * 65 + "k: 1\n", 65, 65,
     "nesting deeper than 64 levels"),
    ("500 levels", "".join(" " * i + "k:\n" for i in range(500)), 65, 65, "nesting deeper"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("label", "text", "line", "col", "what"), REFUSED, ids=[r[0] for r in REFUSED]
)
def test_each_refused_construct_names_file_line_col(
    label: str, text: str, line: int, col: int, what: str
) -> None:
    with pytest.raises(ContractUnmet) as caught:
        yamlstrict.parse(text, "policy.yaml")
    message = caught.value.message
    assert caught.value.code == ExitCode.CONTRACT_UNMET
    assert message.startswith(f"policy.yaml:{line}:{col}: "), message
    assert what in message
    assert " — " in message  # how to fix follows the em dash
    assert "\n" not in message


def test_accepted_subset_values() -> None:
    doc = yamlstrict.parse(
        'a: 1\nb: [x, "y z"]\nc:\n  - d: 2.5\n    e: "q: r"\n    f: true\n    g: null\n'
        "h: 'single'\nts: 2026-09-03T19:30:12Z\nempty: []\n",
        "f.yaml",
    )
    assert doc.data == {
        "a": 1,
        "b": ["x", "y z"],
        "c": [{"d": 2.5, "e": "q: r", "f": True, "g": None}],
        "h": "single",
        "ts": "2026-09-03T19:30:12Z",
        "empty": [],
    }
    assert doc.where(("c", 0, "e")) == "f.yaml:5:5"
    assert doc.where(("nope",)) == "f.yaml:1:1"


def test_quotes_lose_exactly_their_surrounding_quotes() -> None:
    doc = yamlstrict.parse('a: "\'inner\'"\nb: \'"x"\'\nc: "yes"\n', "f.yaml")
    assert doc.data == {"a": "'inner'", "b": '"x"', "c": "yes"}


def test_front_matter_lines_are_file_lines() -> None:
    text = "---\nid: x\nbad: &a 1\n---\nbody\n"
    with pytest.raises(ContractUnmet, match=r"^rule\.md:3:6: anchor"):
        yamlstrict.split_front_matter(text, "rule.md")
    doc, body, first = yamlstrict.split_front_matter("---\nid: x\n---\n# T\n", "r.md")
    assert doc.data == {"id": "x"} and body == "# T\n" and first == 4


def test_unclosed_front_matter_is_one_line_error() -> None:
    with pytest.raises(ContractUnmet, match="not closed"):
        yamlstrict.split_front_matter("---\nid: x\n", "r.md")


def test_what_is_accepted_next_to_the_refusals() -> None:
    doc = yamlstrict.parse(
        "\ufeffa: 'x\ty'\nb: 2001-02-28\nc: 9223372036854775807\nd: 1.5\ne: \"yes\"\r\n",
        "f.yaml",
    )
    assert doc.data == {"a": "x\ty", "b": "2001-02-28", "c": 2**63 - 1, "d": 1.5, "e": "yes"}
    nested = "".join(" " * i + "k:\n" for i in range(63)) + " " * 63 + "k: 1\n"
    assert yamlstrict.parse(nested, "n.yaml").data is not None  # 64 levels


def test_the_writer_quotes_what_any_resolver_types() -> None:
    quoted = [
        *("y", "N", "on", "Off", "TRUE", "nUlL", "0o17", "012", "1_000", "1.0.2", "1e3", "-"),
        *(".inf", ".NaN", "~", "2026-01-01", "2026-01-01T10:00:00Z", "1-2", "00", "<<", "="),
        *("...", "... x"),
    ]
    for text in quoted:
        assert yamlstrict.dump({"k": text}) == f'k: "{text}"\n', text
    for text in ("lib/a", "t-20260903193012-a4f1", "main", "52347c2f28", "a b", "x:y", "none", "."):
        assert yamlstrict.dump({"k": text}) == f"k: {text}\n", text
    assert yamlstrict.dump({"k": 1e-05, "m": 1e16, "f": 2.5}) == "k: 1.0e-05\nm: 1.0e+16\nf: 2.5\n"
    assert yamlstrict.dump({"n": 1}) == '"n": 1\n'  # a YAML 1.1 boolean as a key, too
    for bad in (float("inf"), float("nan"), 2**63):
        with pytest.raises(ValueError):
            yamlstrict.dump({"k": bad})
    with pytest.raises(ValueError):
        yamlstrict.dump({"k" * 1001: 1})
    assert yamlstrict.dump({"k": os.fsdecode(b"\xff.txt")}) == 'k: "\\\\xff.txt"\n'


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(Refused, match="is a directory"):
        yamlstrict.load_file(tmp_path, "dir.yaml")
    bad = tmp_path / "latin.yaml"
    bad.write_bytes(b"a: caf\xe9\n")
    with pytest.raises(ContractUnmet, match=r"latin\.yaml:1:1: not UTF-8"):
        yamlstrict.load_file(bad, "latin.yaml")
    empty = tmp_path / "empty.yaml"
    empty.write_text("# only a comment\n")
    with pytest.raises(ContractUnmet, match="empty"):
        yamlstrict.load_file(empty, "empty.yaml")
    assert yamlstrict.load_file(empty, required=False).data is None


def test_dump_round_trips_through_the_strict_reader() -> None:
    data = {
        "id": "t-20260903193012-a4f1",
        "scope": ["lib/a", "x y", "yes", "a: b", "#x", "`t`", "012", ""],
        "started_at": "2026-09-03T19:30:12Z",
        "none": None,
        "flag": False,
        "n": 3,
        "nested": {"k": [{"a": 1, "b": "c"}]},
        "empty": [],
    }
    assert yamlstrict.parse(yamlstrict.dump(data), "d.yaml").data == data


scalars = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.text(max_size=12))
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.text(min_size=1, max_size=6), inner, min_size=1, max_size=3),
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=8), documents, min_size=1, max_size=4))
def test_dump_then_parse_is_identity(data: dict[str, object]) -> None:
    try:
        text = yamlstrict.dump(data)
    except ValueError:
        return  # shapes the subset cannot hold (nested sequences, empty mappings)
    assert yamlstrict.parse(text, "h.yaml").data == data


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_parses_or_fails_with_one_located_line(text: str) -> None:
    try:
        yamlstrict.parse(text, "p.yaml")
    except MjError as exc:
        assert exc.code == ExitCode.CONTRACT_UNMET
        assert "\n" not in exc.message
        assert re.match(r"^p\.yaml(:\d+:\d+)?: ", exc.message), exc.message
