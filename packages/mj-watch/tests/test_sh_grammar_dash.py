"""The shell grammar held to a real `dash -n`: scripts generated from the POSIX grammar (lists,
pipelines, `if`/`elif`/`else`, `while`/`until`, `for`, `case`, groups, subshells, functions,
redirections, here-documents), then some of them broken by one token dropped, doubled or put in,
are accepted by the parser exactly when `dash -n` accepts them. The parser reads hook files a
person wrote; reading a script dash refuses as valid (or the reverse) would prove the wrong
thing about a hook."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_watch.shell.parser import ShellSyntax
from mj_watch.shell.parser import parse

pytestmark = pytest.mark.skipif(shutil.which("dash") is None, reason="dash is not installed")

WORD = st.sampled_from(["a", "b", "x1", '"q r"', "'s t'", "$v", '"$v"', "${v:-d}", "$(a b)", "-n",
                        "`a`", "$((1+2))", "\\;", "a#b", "#c"])  # fmt: skip
HEREDOC = st.sampled_from(["\ncat <<EOF\nbody $v\nEOF\n", "\ncat <<-'E'\n\tx\n\tE\n",
                           "\ncat <<EOF; a\nb\nEOF\n", "\ncat <<EOF\nopen"])  # fmt: skip
REDIRECT = st.sampled_from(["", " > f", " 2>&1", " < f", " >> f", " 2> /dev/null"])


def _simple(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORD, min_size=1, max_size=3))
    assign = draw(st.sampled_from(["", "v=1 ", "w=$v "]))
    return assign + " ".join(words) + draw(REDIRECT)


def _command(draw: st.DrawFn, depth: int) -> str:
    if depth <= 0 or draw(st.integers(0, 3)) < 2:
        return _simple(draw)

    def body() -> str:  # one nested list, drawn each time it is asked for
        return _list(draw, depth - 1)

    kind = draw(st.sampled_from(["if", "while", "until", "for", "case", "group", "sub", "func"]))
    if kind == "if":
        text = f"if {body()}; then {body()};"
        if draw(st.booleans()):
            text += f" elif {body()}; then {body()};"
        if draw(st.booleans()):
            text += f" else {body()};"
        return text + " fi"
    if kind in ("while", "until"):
        return f"{kind} {body()}; do {body()}; done"
    if kind == "for":
        items = draw(st.sampled_from(["", " in a b", ' in "$@"', " in"]))
        return f"for i{items}; do {body()}; done"
    if kind == "case":
        arms = draw(st.lists(st.sampled_from(["a", "b|c", "*", "x*", "(a", "(b|c"]), max_size=3))
        inner = "".join(f" {arm}) {body()};;" for arm in arms)
        return f"case $v in{inner} esac"
    if kind == "group":
        return f"{{ {body()}; }}" + draw(REDIRECT)
    if kind == "sub":
        return f"( {body()} )" + draw(REDIRECT)
    return f"f() {{ {body()}; }}"


def _pipeline(draw: st.DrawFn, depth: int) -> str:
    parts = [_command(draw, depth) for _ in range(draw(st.integers(1, 2)))]
    return draw(st.sampled_from(["", "! "])) + " | ".join(parts)


def _list(draw: st.DrawFn, depth: int) -> str:
    items = [_pipeline(draw, depth)]
    for _ in range(draw(st.integers(0, 2))):
        items.append(draw(st.sampled_from([" && ", " || ", "; ", "\n", " & "])))
        items.append(_pipeline(draw, depth))
    return "".join(items)


@st.composite
def scripts(draw: st.DrawFn) -> str:
    text = _list(draw, 2)
    if draw(st.booleans()):
        text += draw(HEREDOC)
    if draw(st.integers(0, 2)) == 0:  # one token dropped, doubled or put in: often a refusal
        tokens = text.split(" ")
        at = draw(st.integers(0, len(tokens) - 1))
        how = draw(st.sampled_from(["drop", "double", "insert"]))
        if how == "drop":
            del tokens[at]
        elif how == "double":
            tokens.insert(at, tokens[at])
        else:
            extra = ["then", "fi", "do", "done", ";;", ")", "(", "{", "}", "|", "&&", ";", "esac"]
            tokens.insert(at, draw(st.sampled_from(extra)))
        text = " ".join(tokens)
    return text


def _dash_accepts(text: str) -> bool:
    run = subprocess.run(["dash", "-n"], input=text.encode(), capture_output=True, check=False,
                         timeout=10)  # fmt: skip
    return run.returncode == 0


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts())
def test_the_parser_accepts_exactly_what_dash_accepts(text: str) -> None:
    try:
        parse(text)
        ours = True
    except ShellSyntax:
        ours = False
    assert ours == _dash_accepts(text), text
