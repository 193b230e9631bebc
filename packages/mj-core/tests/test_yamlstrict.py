from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core import yamlstrict
from mj_core.errors import ContractUnmet
from mj_core.errors import MjError
from mj_core.errors import Refused
from mj_core.exitcodes import ExitCode

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
]


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
