"""The POSIX shell tokenizer and parser: words and their quoting, the grammar, its refusals.

Word reading is held equal to the library (`shlex` in POSIX mode) and to a real `dash`, and no
text at all makes the parser raise anything but its own syntax error.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_watch.shell import syntax as ast
from mj_watch.shell.lexer import ShellSyntax
from mj_watch.shell.parser import parse


def only(text: str) -> ast.Simple:
    tree = parse(text)
    assert len(tree.items) == 1
    [command] = tree.items[0][0].parts[0].cmds
    assert isinstance(command, ast.Simple)
    return command


def values(text: str) -> list[str | None]:
    return [ast.static(w) for w in only(text).words]


def test_quoting_forms() -> None:
    assert values("echo 'a b' \"c d\" e\\ f ''") == ["echo", "a b", "c d", "e f", ""]
    assert values('echo "a\\"b" "\\$x" "\\q"') == ["echo", 'a"b', "$x", "\\q"]
    assert values("echo a\\\nb") == ["echo", "ab"]  # a continued line joins the word
    assert values("echo a#b # a comment") == ["echo", "a#b"]


def test_expansions_make_a_word_dynamic() -> None:
    words = ["$x", '"$x"', "${x:-y}", "$(date)", "`date`", "$((1+2))", "*.py", "~/bin", "a{b,c}"]
    for word in words:
        assert values(f"echo {word}")[1] is None, word
    assert ast.param(only('echo "${h}"').words[1]) == "h"
    assert only("echo ${x:-y}").words[1].parts[0].op == ":-y"


def test_substitutions_are_parsed_as_the_full_grammar() -> None:
    command = only("x=$(case a in a) echo 'it)';; esac)")
    [sub] = command.assigns[0].parts[1:]
    assert sub.kind == ast.SUB and sub.body is not None
    assert isinstance(ast.commands(sub.body)[0], ast.Case)


def test_here_documents_are_read_and_skipped() -> None:
    tree = parse("cat <<EOF >out\nexit 0\n$x\nEOF\ncat <<-'E'\n\tbody\n\tE\necho after\n")
    first, second, third = (item[0].parts[0].cmds[0] for item in tree.items)
    assert isinstance(first, ast.Simple) and first.redirs[0].heredoc == "exit 0\n$x\n"
    assert isinstance(second, ast.Simple) and second.redirs[0].quoted
    assert isinstance(third, ast.Simple) and ast.static(third.words[0]) == "echo"


def test_compound_commands_and_lists() -> None:
    text = (
        "if a; then b; elif c; then d; else e; fi\nwhile f; do g; done\nuntil h; do i; done\n"
        "for x in 1 2; do j; done\nfor y; do k; done\ncase $z in (a|b) l;; *) m\nesac\n"
        "{ n; } > /dev/null\n( o )\nf() { p; }\n! q && r || s &\nt | u\n2>&1 v <<< w\n"
    )
    with pytest.raises(ShellSyntax):
        parse(text)  # `<<<` is bash's: not in the grammar
    tree = parse(text.replace(" <<< w", ""))
    kinds = [type(item[0].parts[0].cmds[0]).__name__ for item in tree.items]
    assert kinds == [
        "If",
        "Loop",
        "Loop",
        "For",
        "For",
        "Case",
        "Group",
        "Group",
        "Func",
        "Simple",
        "Simple",
        "Simple",
    ]
    bang = tree.items[9]
    assert bang[1] and bang[0].parts[0].bang and bang[0].ops == ["&&", "||"]
    assert only("2>&1 v").redirs[0].fd == "2"


@pytest.mark.parametrize(
    "text",
    [
        "if true; then fi",
        "if true; then echo; ",
        "{ echo }",
        "( )",
        "echo 'open",
        'echo "open',
        "echo $(open",
        "echo ${open",
        "a &&",
        "| a",
        "case x in a) ;& esac",
        "((1))",
        "for 1 in a; do :; done",
        "then",
        "echo `open",
    ],
)
def test_syntax_errors(text: str) -> None:
    with pytest.raises(ShellSyntax):
        parse(text)


def test_a_function_body_is_any_command_in_sh_and_a_compound_one_in_bash() -> None:
    [[item, _]] = parse("f() echo hi > x").items
    func = item.parts[0].cmds[0]
    assert isinstance(func, ast.Func) and isinstance(func.body, ast.Simple)
    for text in ("f() echo", "f() ! a"):
        with pytest.raises(ShellSyntax):
            parse(text, bash=True)
    with pytest.raises(ShellSyntax):
        parse("f() ! a")


def test_bash_arrays_only_in_bash() -> None:
    text = 'ARGS=(hook-impl "--x=$y")\nARGS+=(more)\n'
    with pytest.raises(ShellSyntax):
        parse(text)
    arrays = [item[0].parts[0].cmds[0] for item in parse(text, bash=True).items]
    assert [a.arrays[0][0] for a in arrays if isinstance(a, ast.Simple)] == ["ARGS", "ARGS+"]


PLAIN = st.text(alphabet=st.characters(blacklist_characters="\0", codec="utf-8"), max_size=12)


@given(st.lists(PLAIN, min_size=1, max_size=6))
def test_quoted_words_round_trip(words: list[str]) -> None:
    assert values("echo " + " ".join(shlex.quote(w) for w in words)) == ["echo", *words]


def _double(word: str) -> str:
    return '"' + "".join("\\" + c if c in '$`"\\' else c for c in word) + '"'


@given(st.lists(PLAIN.filter(lambda w: "\n" not in w), min_size=1, max_size=6))
def test_double_quoted_words_round_trip(words: list[str]) -> None:
    assert values("echo " + " ".join(_double(w) for w in words)) == ["echo", *words]


WORDISH = st.text(alphabet="ab \t'\"\\-=.:/", min_size=1, max_size=20)


@given(WORDISH)
def test_word_splitting_equals_shlex(text: str) -> None:
    try:
        expected = shlex.split(text, posix=True)
    except ValueError:
        return  # shlex refuses a trailing backslash that sh keeps; quotes are tested above
    tree = parse(text)
    found = [
        ast.static(w)
        for and_or, _ in tree.items
        for c in and_or.parts[0].cmds
        if isinstance(c, ast.Simple)
        for w in c.assigns + c.words
    ]
    assert found == expected


@pytest.mark.skipif(shutil.which("dash") is None, reason="dash is not installed")
@settings(max_examples=60, deadline=None)
@given(WORDISH)
def test_word_splitting_equals_dash(text: str) -> None:
    try:
        found = values("set -- " + text)[2:]
    except ShellSyntax:
        found = None
    script = "f() { printf '%s\\0' \"$@\"; }; f - " + text  # the words last: nothing follows
    run = subprocess.run(["dash", "-c", script], capture_output=True, check=False, timeout=10)
    if run.returncode != 0:
        assert found is None  # dash refuses what the parser refuses
        return
    assert found == run.stdout.decode().split("\0")[1:-1]


@given(st.text(max_size=200))
def test_any_text_parses_or_is_a_syntax_error(text: str) -> None:
    try:
        parse(text)
    except ShellSyntax as exc:
        assert 0 <= exc.pos <= len(text) + 2
