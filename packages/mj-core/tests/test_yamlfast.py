"""The line reader against PyYAML's event reader: same data, same types, same marks, or it declines.

Texts come from three sources: `dump()` of generated data, hand-written line templates (comments,
blank lines, quoted keys, flow and indentless sequences, trailing spaces) and raw text built
from YAML's significant characters. Whenever the line reader accepts, the event reader must give
exactly its result; `parse()` must equal the event reader on every text, refusals included.
"""

from __future__ import annotations

import math
import subprocess
import sys

import pytest
from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core import share
from mj_core.errors import ContractUnmet
from mj_core.yaml import events as yamlevents
from mj_core.yaml import fast as yamlfast
from mj_core.yaml import scalars as yaml11
from mj_core.yaml import strict as yamlstrict

NASTY = [
    *("yes", "No", "on", "OFF", "y", "n", "~", "null", "Null", "NULL", "true", "False"),
    *("012", "0o12", "0x1F", "0b101", "1_000", "190:20:30", "1:20.5", "1e3", "1.5e+3", ".5"),
    *("-.inf", ".NaN", "+1", "-1", "0", "-0", "1.", "3.14", "007", "1_0.5", "-.5", "+.5"),
    *("2026-01-01", "2026-1-1 10:00:00", "2026-01-01T10:00:00Z", "2026-01-01 1:00:00.5 +01"),
    *("<<", "=", "!", "&", "*", "-", "- x", "-x", "--", "---", "...", "a: b", "a:b", "a:"),
    *("#x", "a #b", "a#b", "'q'", '"q"', "a'b", 'a"b', "a\\b", "[x]", "[]", "{x}", "a, b"),
    *("?", "? x", ":", ":x", ",", "|", ">", "%", "@x", "`x`", "&a", "*a", "!t", "x ", " x"),
    *("", " ", "ü", "日本", "😀", "a\u00a0b", "tab\there", "cr\rx", "nl\nx", "\x85", "\u2028"),
    *("15m", "1.0.2", "v1", "a b  c", "it's", "C:\\x", "http://x/y", "x]", "x}"),
]
scalar_text = st.one_of(st.sampled_from(NASTY), st.text(max_size=10))
words = st.from_regex(r"[a-zA-Z0-9][a-zA-Z0-9_./ -]{0,10}", fullmatch=True)
printable = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=8)
hand_text = st.one_of(words, words, words, st.sampled_from(NASTY), printable)
key_text = st.one_of(st.from_regex(r"[a-zA-Z_][a-zA-Z0-9_.-]{0,10}", fullmatch=True), hand_text)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**9), 10**9), scalar_text, st.floats(-1e6, 1e6)
)


def _typed(value: object) -> object:
    """`value` with every leaf tagged by its type (True == 1 == 1.0 in Python)."""
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(item) for item in value]
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    return (type(value).__name__, value)


def _events(text: str, offset: int) -> tuple[object, object] | str:
    try:
        data, marks = yamlevents.parse(text, "h.yaml", offset)
    except ContractUnmet as exc:
        return exc.message
    return _typed(data), marks


def assert_same(text: str, offset: int = 0) -> bool:
    """The line reader's result (when it accepts) and parse() equal the event reader's.

    True when the line reader accepted, or the text is refused (nothing left to accept).
    """
    slow = _events(text, offset)
    fast = yamlfast.read(text, offset)
    if fast is not None:
        assert not isinstance(slow, str), f"line reader accepted a refused text: {slow}"
        assert (_typed(fast[0]), fast[1]) == slow
    try:
        doc = yamlstrict.parse(text, "h.yaml", line_offset=offset)
    except ContractUnmet as exc:
        assert exc.message == slow
    else:
        assert (_typed(doc.data), doc.marks) == slow
    return fast is not None or isinstance(slow, str)


documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(scalar_text.filter(bool), inner, min_size=1, max_size=3),
    ),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(scalar_text.filter(bool), documents, min_size=1, max_size=4))
def test_dumped_documents_read_the_same(data: dict[str, object]) -> None:
    try:
        text = yamlstrict.dump(data)
    except ValueError:
        return  # outside the emitter (nested sequences, empty mappings)
    accepted = assert_same(text)
    if all(line.isprintable() for line in text.split("\n")):
        assert accepted, text  # what dump() writes is in the shape unless it is refused


STYLE = st.sampled_from(["plain", "plain", "plain", "single", "double", "escaped"])
TAIL = st.sampled_from(["", "", "", "", "", "  ", " # note", "  #: x", "#x", " #"])
FILLER = st.sampled_from([None, None, None, "", "# c", "#", "#- x: y"])
PAD = st.integers(0, 6)
KIND = st.sampled_from(["scalar", "scalar", "map", "seq", "flow"])
SEPARATOR = st.sampled_from([", ", ",", " , "])
STEP = st.sampled_from([1, 2, 2, 4])
COLON = st.sampled_from([":", ":", ":", " :"])
COUNT = st.integers(1, 3)
FLOW_ITEMS = st.lists(hand_text, max_size=3)
KEYS = key_text.filter(bool)
ROOT = st.sampled_from(["map", "map", "seq"])
START = st.sampled_from(["", "", "---\n", "--- \n", "# head\n---\n"])
END = st.sampled_from(["\n", "", "\n\n", "\n# end\n"])


def _quote(draw: st.DrawFn, text: str) -> str:
    """`text` as written by hand: plain, single-quoted or double-quoted (maybe with escapes)."""
    style = draw(STYLE)
    if style == "single":
        return "'" + text.replace("'", "''") + "'"
    if style == "double":
        return '"' + text + '"'
    if style == "escaped":
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return text


def _render_value(draw: st.DrawFn, kind: str, lead: str, indent: int, depth: int) -> list[str]:
    """Lines for a value whose first line starts with `lead` (`key:` or `-`)."""
    if kind == "scalar" or depth >= 3:
        return [f"{lead} {_quote(draw, draw(hand_text))}{draw(TAIL)}"]
    if kind == "flow":
        inner = draw(SEPARATOR).join(_quote(draw, item) for item in draw(FLOW_ITEMS))
        return [f"{lead} [{inner}]{draw(TAIL)}"]
    step = draw(STEP)
    child = indent + step
    if kind == "seq" and lead.endswith(":") and draw(st.booleans()):
        child = indent  # an indentless sequence under a key
    lines = _render_block(draw, kind, child, depth + 1)
    if lead.endswith("-") and kind == "map" and draw(st.booleans()):
        return [f"{lead}{' ' * step}{lines[0].lstrip(' ')}", *lines[1:]]  # `- key: value`
    return [lead + draw(TAIL), *lines]


def _render_block(draw: st.DrawFn, kind: str, indent: int, depth: int) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    for _ in range(draw(COUNT)):
        filler = draw(FILLER)
        if filler is not None:
            lines.append(" " * draw(PAD) + filler)
        lead = pad + _quote(draw, draw(KEYS)) + draw(COLON) if kind == "map" else pad + "-"
        lines += _render_value(draw, draw(KIND), lead, indent, depth)
    return lines


@st.composite
def hand_written(draw: st.DrawFn) -> str:
    lines = _render_block(draw, draw(ROOT), 0, 0)
    return draw(START) + "\n".join(lines) + draw(END)


@settings(max_examples=800, deadline=None)
@given(hand_written(), st.sampled_from([0, 0, 1, 7]))
@example('a: 1\nb: [x, "y z"]\nc:\n  - d: 2.5\n    e: "q: r"\n', 0)
@example("k:\n- a\n- b: 1\n  c: [x]\nz: ~\n", 1)
def test_hand_written_documents_read_the_same(text: str, offset: int) -> None:
    assert_same(text, offset)


NEAR = st.lists(
    st.sampled_from([*" \n-:#'\"[],{}&*!|>%@`?\\ab01._~=<", "  ", "\n  ", "- ", ": ", "ü"]),
    max_size=40,
).map("".join)


@settings(max_examples=800, deadline=None)
@given(NEAR)
@example("a:\n- b\nc: d")
@example("- a: 1\n  b: 2\n- 'c'")
def test_raw_text_near_the_subset_reads_the_same(text: str) -> None:
    assert_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "a:\tb\n",  # tab
        "a: b\r\n",  # carriage return
        "\ufeffa: b\n",  # byte order mark
        'a: "x\\\n  y"\n',  # escaped line break
        "a: x\n  y\n",  # multi-line plain scalar
        "a: 'x\n  y'\n",  # multi-line quoted scalar
        "a: |\n  x\n",  # block scalar
        "a: &x 1\n",  # anchor
        "a: !t x\n",  # tag
        "? a\n: b\n",  # explicit key
        "a: {b: 1}\n",  # flow mapping
        "a: [b,\n  c]\n",  # multi-line flow sequence
        "a: 1\n---\nb: 2\n",  # a second document
        "a: 1\n...\n",  # document end
        "a: b: c\n",  # ': ' in a plain scalar
        "a: yes\n",  # YAML 1.1 and 1.2 disagree
        "a: 1\na: 2\n",  # duplicate key
        "<<: 1\n",  # merge key
        "1: x\n",  # a key that is not a string
        "- - x\n",  # a sequence in a sequence
        "-\n  a: 1\n",  # an item on the next line
        "plain\n",  # a scalar document
        'a: "\\N"\n',  # an escape the reader does not take
        'a: "\\ud800"\n',  # a lone surrogate
        "k" * 1100 + ": 1\n",  # an implicit key over 1024 characters
        '"' + "k" * 1100 + '": 1\n',
    ],
)
def test_line_reader_declines_what_it_is_not_sure_about(text: str) -> None:
    assert yamlfast.read(text) is None
    assert_same(text)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(scalar_text, printable, words))
def test_a_plain_scalar_is_typed_as_the_type_rules_type_it(text: str) -> None:
    """The reader's plain scalars (text opening as no type does is taken as text at once) are
    the values the YAML 1.1 and 1.2 rules agree on, and declined where they do not agree."""
    try:
        value = yamlfast._plain(text)
    except yamlfast._Decline:
        value = yamlfast._Decline
    agreed, expected = yaml11.plain_value(text) if text else (False, None)
    if value is not yamlfast._Decline:
        assert agreed and _typed(value) == _typed(expected), text
    elif agreed and text[0] not in yamlfast._INDICATORS and ": " not in text:
        assert " #" in text or text.endswith(":"), text  # declined only for its shape


def test_line_reader_takes_the_common_shape_with_marks() -> None:
    text = (
        "---\n# policy\nversion: 1  # schema\n\nlist:\n- a\n- 'b''c'\nitems:\n"
        '  - name: x\n    args: [doctor, "--json"]\n  -   k: ""\nempty:\nflow: [ ]\n'
        'esc: "tab\\there \\u00e9"\n'
        'more: "\\x41\\U0001F600\\r\\0\\\\\\"\\n"\n'
    )
    read = yamlfast.read(text, 2)
    assert read is not None
    data, marks = read
    assert data == {
        "version": 1,
        "list": ["a", "b'c"],
        "items": [{"name": "x", "args": ["doctor", "--json"]}, {"k": ""}],
        "empty": None,
        "flow": [],
        "esc": "tab\there \u00e9",
        "more": 'A\U0001f600\r\0\\"\n',
    }
    assert marks[("version",)] == (5, 1)
    assert marks[("list", 1)] == (9, 3)
    assert marks[("items", 0)] == marks[("items", 0, "name")] == (11, 5)
    assert marks[("items", 0, "args", 1)] == (12, 20)
    assert marks[("items", 1, "k")] == (13, 7)
    assert assert_same(text, 2)


def _share_texts() -> list[tuple[str, str, int]]:
    """(name, YAML text, line offset) of every shipped YAML file and Markdown front matter the
    tool reads (`ci/` holds CI jobs `init --ci` copies out for GitHub's and GitLab's readers)."""
    root = share.root()
    texts = []
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if name.startswith("ci/"):
            continue
        if path.suffix in (".yaml", ".yml"):
            texts.append((name, path.read_text(encoding="utf-8"), 0))
        elif path.suffix == ".md" and path.read_text(encoding="utf-8").startswith("---\n"):
            lines = path.read_text(encoding="utf-8").split("\n")
            texts.append((name, "\n".join(lines[1 : lines.index("---", 1)]) + "\n", 1))
    return texts


def test_every_shipped_yaml_goes_through_the_line_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _share_texts()
    assert len(texts) >= 30 and any(name == "commands.yaml" for name, _, _ in texts)

    def no_fallback(text: str, name: str, line_offset: int) -> None:
        raise AssertionError(f"{name} fell back to PyYAML")

    monkeypatch.setattr(yamlstrict, "_parse_events", no_fallback)
    for name, text, offset in texts:
        data, marks = yamlevents.parse(text, name, offset)
        path = share.root() / name
        if offset:
            doc = yamlstrict.split_front_matter(path.read_text(encoding="utf-8"), name)[0]
        else:
            doc = yamlstrict.load_file(path, name)
        assert (_typed(doc.data), doc.marks) == (_typed(data), marks), name
        assert doc == yamlstrict.Document(name, data, marks)


def test_reading_and_dumping_do_not_import_pyyaml_typing_or_dataclasses() -> None:
    code = (
        "import sys\n"
        "from mj_core import share\n"
        "from mj_core.yaml import strict as yamlstrict\n"
        "doc = yamlstrict.load_file(share.path('skeleton', 'ai', 'repo', 'policy.yaml'))\n"
        "assert doc.data['version'] == 1\n"
        "from mj_core.yaml import scalars as yaml11\n"
        "assert not yaml11._compiled, list(yaml11._compiled)\n"  # words and decimals: no pattern
        "yamlstrict.split_front_matter(share.read_text('skeleton', 'ai', 'README.md'), 'r.md')\n"
        "text = yamlstrict.dump({'a': [1, 'yes', {'b': None}], 'c': '2026-01-01'})\n"
        "assert yamlstrict.parse(text, 'd.yaml').data['a'][1] == 'yes'\n"
        "loaded = [m for m in ('yaml', 'typing', 'dataclasses', 'mj_core.yaml.events')"
        " if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
