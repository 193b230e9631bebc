"""The one sanitiser: what it lets through can neither drive a terminal nor forge a heading."""

from __future__ import annotations

import io
import os
import re

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core import sanitise

CONTROL = re.compile(
    r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]"
)
PIECES = st.sampled_from(
    [
        "\x1b[31m",
        "\x1b]0;title\x07",
        "\x1b]8;;http://x\x1b\\",
        "\x1b",
        "\x9b",
        "\r",
        "\n",
        "\x85",
        "\u2028",
        "\u202e",
        "\u2066",
        "\x00",
        "\x7f",
        "\t",
        "#",
        "## GIT",
        "---",
        "===",
        "\udcff",
        "\ud800",
        "é",
        "日",
        "😀",
        " ",
        "a",
        "text",
    ]
)
TEXTS = st.one_of(st.lists(PIECES, max_size=12).map("".join), st.text(max_size=40))


@settings(max_examples=1000, deadline=None)
@given(TEXTS, st.sampled_from([None, 5, 40]))
def test_a_sanitised_line_has_no_control_and_prints_in_utf_8(text: str, width: int | None) -> None:
    clean = sanitise.line(text, width)
    assert not CONTROL.search(clean), repr(clean)
    assert "\x1b" not in clean and "\n" not in clean
    clean.encode("utf-8")  # surrogates are escaped, never left to fail the stream
    if width is not None:
        assert len(clean) <= width


@settings(max_examples=1000, deadline=None)
@given(TEXTS)
def test_a_body_line_never_reads_as_a_heading(text: str) -> None:
    clean = sanitise.body_line(text)
    assert not clean.lstrip(" \t").startswith("#") or clean.startswith(sanitise.INDENT)
    assert not re.fullmatch(r" {0,3}(=+|-+) *", clean)


def test_examples() -> None:
    assert sanitise.line("\x1b[31mred\x1b[0m \u202eevil\rback") == "red evilback"
    assert sanitise.line("tab\tkept") == "tab\tkept"
    assert sanitise.line("x" * 10, 5) == "xxxx…"
    assert sanitise.body_line("## GIT") == "    ## GIT"
    assert sanitise.body_line("---") == "    ---"
    assert sanitise.body_line("- item") == "- item"
    name = os.fsdecode(b"\xff\xfe.txt")
    assert sanitise.undecodable(name) == "\\xff\\xfe.txt"
    assert sanitise.line(name) == "\\xff\\xfe.txt"


def test_the_stream_handler_escapes_undecodable_bytes() -> None:
    sanitise.register()
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8", errors=sanitise.ESCAPE)
    stream.write(os.fsdecode(b"a\xff") + " é\n")
    stream.flush()
    assert raw.getvalue() == "a\\xff é\n".encode()


@settings(max_examples=1000, deadline=None)
@given(TEXTS)
def test_terminal_text_has_no_control_but_newline_and_tab(text: str) -> None:
    shown = sanitise.terminal(text)
    assert not re.search(
        r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]",
        shown,
    )
    assert shown.count("\n") == text.count("\n")
    assert shown.count("\t") == text.count("\t")


def test_terminal_shows_each_control_as_its_escape() -> None:
    assert sanitise.terminal("\x1b]0;t\x07\x1b[31mr\x9b\u202ex\x7f\r\n\t") == (
        "\\x1b]0;t\\x07\\x1b[31mr\\x9b\\u202ex\\x7f\\x0d\n\t"
    )
    assert sanitise.terminal("plain é 日") == "plain é 日"


def test_an_escaped_stream_shows_controls_whatever_the_write_boundaries() -> None:
    sanitise.escape_streams()  # installs the codec
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=sanitise.TERMINAL, errors=sanitise.ESCAPE)
    for piece in ("a\x1b", "]0;t", "\x07", os.fsdecode(b"\xff"), "\u2066\n"):
        stream.write(piece)
    stream.flush()
    assert raw.getvalue() == b"a\\x1b]0;t\\x07\\xff\\u2066\n"
    sanitise.restore_streams()


def test_a_stream_in_another_encoding_stays_in_it_escaped() -> None:
    sanitise.escape_streams()  # installs the codec
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="latin-1", errors=sanitise.ESCAPE)
    sanitise._reencode(stream, sanitise.TERMINAL)
    stream.write("é\x1b[1m\n")
    stream.flush()
    assert raw.getvalue() == b"\xe9\\x1b[1m\n"
    sanitise._reencode(stream, None)
    assert stream.encoding == "latin-1"
    sanitise.restore_streams()
