"""The static hook proof, on hand-written hook bodies: what it accepts, and why it refuses."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_watch.shell import syntax as sh_ast
from mj_watch.wiring import call as hookcall
from mj_watch.wiring import prove as hookproof
from mj_watch.wiring import target as hooktarget

DOCTOR = ["majordomus", "doctor"]
SH = "#!/bin/sh\n"

ACCEPTED = [
    SH + "majordomus doctor || exit $?\necho after\n",
    SH + "majordomus doctor || exit\n",
    SH + 'majordomus doctor || exit "$?"\n',
    SH + "majordomus doctor\n",
    SH + "set -e\nmajordomus doctor\necho after\n",
    "#!/bin/sh -e\nmajordomus doctor\necho after\n",
    "#!/bin/sh -eu\nmajordomus doctor\n",
    SH + "exec majordomus doctor\n",
    SH + "/opt/venv/bin/majordomus doctor || exit $?\n",
    SH + "if majordomus doctor; then :; else exit $?; fi\necho after\n",
    SH + "majordomus doctor || exit $?\n# majordomus doctor || true\n",
    SH + "majordomus doctor && exit 0 || exit $?\n",
    SH + "majordomus doctor; exit $?\n",
    SH + "majordomus doctor || { exit $?; }\n",
    SH + "majordomus doctor >/dev/null 2>&1 || exit $?\n",
    SH + "echo 'checking the layer' >&2\nmajordomus doctor || exit $?\n",
    SH + 'NAME="$(basename "$0")"\nexport NAME\nmajordomus doctor || exit $?\n',
    SH + "case $1 in *) majordomus doctor || exit $?;; esac\n",
    SH + "majordomus \\\n  doctor || exit $?\n",
    SH + ": <<'NOTE'\nexit 0\nNOTE\nmajordomus doctor || exit $?\n",
    SH + "set -e\nmajordomus doctor && echo passed\n",
    "#!/usr/bin/env sh\nmajordomus doctor || exit $?\n",
    "#!/usr/bin/env bash\nset -o pipefail\nmajordomus doctor || exit $?\n",
    "#!/bin/dash\nmajordomus doctor || exit $?\n",
    "#! /bin/bash\nmajordomus doctor || exit $?\n",
    "majordomus doctor || exit $?\n",  # no `#!`: git runs it with sh
]

REFUSED = [
    (SH + "majordomus doctor; exit 0\n", "swallow", "`; exit 0` after"),
    (SH + "majordomus doctor || true\n", "swallow", "`|| true`"),
    (SH + "majordomus doctor || :\n", "swallow", "`|| :`"),
    (SH + "majordomus doctor || exit 0\n", "swallow", "`|| exit 0`"),
    (SH + "majordomus doctor || exit 1\n", "swallow", "`|| exit 1`"),
    (SH + "majordomus doctor; true\n", "swallow", "`; true`"),
    (SH + "majordomus doctor\necho after\n", "swallow", "carries on"),
    (SH + "set -e\nset +e\nmajordomus doctor\necho after\n", "swallow", "set +e"),
    (SH + "set -e\nmajordomus doctor && echo ok\necho more\n", "swallow", "`&& echo ok`"),
    (SH + "if majordomus doctor; then echo ok; fi\n", "swallow", "carries on"),
    (SH + "if ! majordomus doctor; then exit $?; fi\n", "swallow", ""),
    (SH + "if ! majordomus doctor; then\n  exit 1\nfi\n", "swallow", "exit 1"),
    (SH + "majordomus doctor || { echo failed; exit $?; }\n", "swallow", ""),
    (SH + "majordomus doctor || { rc=$?; exit $rc; }\n", "swallow", ""),
    (SH + "exit 0\nmajordomus doctor || exit $?\n", "unproven", "`exit 0` can end the hook"),
    (SH + "exec true\nmajordomus doctor || exit $?\n", "unproven", "replaces the hook"),
    (SH + "majordomus doctor | tee log\n", "unproven", "pipeline"),
    (SH + "majordomus doctor || exit $? | tee log\n", "swallow", "tee"),
    (SH + "majordomus doctor &\n", "unproven", "background"),
    (SH + "majordomus doctor || exit $? &\nwait\n", "unproven", "background"),
    (SH + "if false; then majordomus doctor || exit $?; fi\n", "unproven", "no path"),
    (SH + 'if [ -n "$CI" ]; then majordomus doctor || exit $?; fi\n', "unproven", "skips"),
    (SH + "trap 'exit 0' EXIT\nmajordomus doctor || exit $?\n", "unproven", "trap"),
    ("#!/bin/true\nmajordomus doctor || exit $?\n", "unproven", "sh, bash or dash"),
    ("#!/usr/bin/python3\nmajordomus doctor || exit $?\n", "unproven", "sh, bash or dash"),
    ("#!/tmp/sh\nmajordomus doctor || exit $?\n", "unproven", "sh, bash or dash"),
    ("#!/usr/bin/env sh -e\nmajordomus doctor || exit $?\n", "unproven", "sh, bash or dash"),
    ("#!/bin/sh -e -u\nmajordomus doctor || exit $?\n", "unproven", "not followed"),
    ("#!/bin/sh -n\nmajordomus doctor || exit $?\n", "unproven", "not followed"),
    (SH + "majordomus() { :; }\nmajordomus doctor || exit $?\n", "unproven", "function"),
    (SH + "exit() { :; }\nmajordomus doctor || exit $?\n", "unproven", "function"),
    (SH + "alias majordomus=true\nmajordomus doctor || exit $?\n", "unproven", "alias"),
    (SH + "majordomus doctor --help || exit $?\n", "absent", "--help"),
    (SH + "majordomus doctors || exit $?\n", "absent", "does not invoke"),
    (SH + "echo majordomus doctor\n", "absent", "does not invoke"),
    (SH + "cd /elsewhere && majordomus doctor || exit $?\n", "unproven", "`cd`"),
    (SH + "PATH=/tmp/bin:$PATH\nmajordomus doctor || exit $?\n", "unproven", "PATH"),
    (SH + "export PYTHONPATH=/tmp/x\nmajordomus doctor || exit $?\n", "unproven", "PYTHONPATH"),
    (SH + "X=1 majordomus doctor || exit $?\n", "unproven", "variables of its own"),
    (
        SH + "command -v majordomus >/dev/null || exit 0\nmajordomus doctor || exit $?\n",
        "unproven",
        "`exit 0`",
    ),
    (SH + "( majordomus doctor ) || exit $?\n", "unproven", "subshell"),
    (SH + "(exit 0)\nmajordomus doctor || exit $?\n", "unproven", "subshell"),
    (SH + "for x in a; do majordomus doctor || exit $?; done\n", "unproven", "loop"),
    (SH + "while :; do :; done\nmajordomus doctor || exit $?\n", "unproven", "loop"),
    (SH + "case $1 in a) exit 0;; esac\nmajordomus doctor || exit $?\n", "unproven", "exit 0"),
    (SH + "set -o pipefail\nmajordomus doctor || exit $?\n", "unproven", "pipefail"),
    (SH + "set -n\nmajordomus doctor || exit $?\n", "unproven", "set -n"),
    (SH + "set -e\necho start\nmajordomus doctor || exit $?\n", "unproven", "set -e"),
    (SH + 'set -u\necho "$1"\nmajordomus doctor || exit $?\n', "unproven", "set -u"),
    (SH + "eval 'exit 0'\nmajordomus doctor || exit $?\n", "unproven", "eval"),
    (SH + ". ./hooks.sh\nmajordomus doctor || exit $?\n", "unproven", "runs another file"),
    (SH + "sleep 1\nmajordomus doctor || exit $?\n", "unproven", "`sleep 1`"),
    (SH + "echo $(rm -f majordomus)\nmajordomus doctor || exit $?\n", "unproven", "`rm`"),
    (SH + "echo x > .venv/bin/majordomus\nmajordomus doctor || exit $?\n", "unproven", "writes"),
    (SH + "majordomus doctor > .venv/bin/majordomus || exit $?\n", "unproven", "writes"),
    (SH + "$CMD\nmajordomus doctor || exit $?\n", "unproven", "expansion"),
    (SH + "majordomus doctor || exit $?\r\n", "unproven", "CRLF"),
    ("#!/bin/sh\r\nmajordomus doctor || exit $?\r\n", "unproven", "CRLF"),
    (SH + "majordomus doc\0tor || exit $?\n", "unproven", "NUL"),
    (SH + "majordomus doctor || exit $?\nif\n", "unproven", "does not parse"),
    (SH + "((1))\nmajordomus doctor || exit $?\n", "unproven", "does not parse"),
    (SH + "function majordomus { :; }\nmajordomus doctor || exit $?\n", "unproven", ""),
    (SH + "return 0\nmajordomus doctor || exit $?\n", "unproven", "return"),
    ("", "absent", "does not invoke"),
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_accepted_forms(text: str) -> None:
    verdict = hookproof.prove(text, DOCTOR)
    assert verdict.ok, verdict
    assert "majordomus" in text.splitlines()[verdict.line - 1]


@pytest.mark.parametrize(("text", "kind", "why"), REFUSED)
def test_refused_forms(text: str, kind: str, why: str) -> None:
    verdict = hookproof.prove(text, DOCTOR)
    assert (verdict.kind, why in verdict.reason) == (kind, True), verdict


def test_the_call_may_be_written_with_the_entry_path() -> None:
    text = SH + "tools/majordomus finish --check || exit $?\n"
    assert hookproof.prove(text, ["tools/majordomus", "finish", "--check"]).ok
    assert hookproof.prove(text, ["majordomus", "finish", "--check"]).ok  # any directory
    assert not hookproof.prove(text, ["majordomus", "finish"]).ok  # exactly the arguments


@pytest.mark.parametrize(
    "text",
    [
        SH + 'for h in "$0.d"/*; do "$h" || exit $?; done\n',
        SH + 'for h in "$0".d/*; do [ -x "$h" ] && { "$h" || exit $?; }; done\n',
        SH + 'for h in "${0}.d"/*; do\n  [ -x "$h" ] || continue\n  "$h" "$@" || exit $?\ndone\n',
        SH + 'if [ -d "$0.d" ]; then\n  for h in "$0.d"/*; do\n    if test -x "$h"; then\n'
        '      "$h" || exit $?\n    fi\n  done\nfi\n',
    ],
)
def test_runners_that_run_every_sub_hook(text: str) -> None:
    assert hookproof.prove_runner(text).ok, hookproof.prove_runner(text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (SH + 'for h in "$0.d"/*; do "$h"; done\n', "carries on"),
        (SH + 'for h in "$0.d"/*; do "$h" || break; done\n', "break"),
        (SH + 'for h in "$0.d"/*; do "$h"; exit $?; done\n', "before every sub-hook"),
        (SH + 'for h in "$0.d"/*; do . "$h"; done\n', "runs another file"),
        (SH + 'for h in "$0.d"/*; do exec "$h"; done\n', "replaces the hook"),
        (SH + 'for h in "$0.d"/*; do [ -n "$X" ] && "$h" || exit $?; done\n', "can end"),
        (SH + 'for h in /tmp/*; do "$h" || exit $?; done\n', "does not invoke"),
        (SH + 'for h in "$0.d"/*; do "$h" | cat || exit $?; done\n', "pipeline"),
        (SH + 'exit 0\nfor h in "$0.d"/*; do "$h" || exit $?; done\n', "exit 0"),
    ],
)
def test_runners_that_can_skip_or_swallow(text: str, why: str) -> None:
    verdict = hookproof.prove_runner(text)
    assert not verdict.ok and why in verdict.reason, verdict


def test_losses_name_every_call_that_can_discard_its_code() -> None:
    text = SH + "majordomus check || true\nmajordomus doctor || exit $?\nmajordomus watch; echo\n"
    found = hookproof.losses(text)
    assert [v.line for v in found] == [2, 4]
    assert "`|| true`" in found[0].reason and "`; echo`" in found[1].reason


def test_losses_ask_nothing_of_what_runs_before_or_whether_the_call_is_reached() -> None:
    text = SH + "cd sub\nif [ -f x ]; then majordomus check || exit $?; fi\nmajordomus doctor\n"
    assert hookproof.losses(text) == []
    assert hookproof.losses("#!/usr/bin/env python3\nprint('no call')\n") == []


def test_an_unreadable_hook_that_names_majordomus_is_a_loss() -> None:
    [verdict] = hookproof.losses("#!/usr/bin/env python3\nos.system('majordomus check')\n")
    assert verdict.kind == "unproven" and "python3" in verdict.reason


def test_a_shebang_sets_the_syntax_and_the_options() -> None:
    assert hookproof.shebang("#!/bin/bash -e\n") == (True, 1)
    assert hookproof.shebang("#!/usr/bin/env dash\n") == (False, 0)
    assert hookproof.shebang("no shebang\n") == (False, 0)
    assert isinstance(hookproof.shebang("#!/usr/bin/env -S sh -e\n"), hookproof.Verdict)


SHELLISH = st.lists(
    st.sampled_from(
        [
            "majordomus",
            "doctor",
            "||",
            "&&",
            "|",
            ";",
            "&",
            "\n",
            "exit",
            "$?",
            "0",
            "if",
            "then",
            "fi",
            "else",
            "for",
            "h",
            "in",
            '"$0.d"/*',
            "do",
            "done",
            "{",
            "}",
            "(",
            ")",
            "'",
            '"',
            "set",
            "-e",
            "+e",
            "!",
            "true",
            "case",
            "esac",
            "*)",
            ";;",
            "<<EOF",
            "EOF",
            "$(",
            "`",
            "trap",
            "exec",
            "f()",
            "while",
            "break",
            "continue",
            '"$h"',
            "#",
        ]
    ),
    max_size=30,
)


@settings(max_examples=300)
@given(SHELLISH, st.sampled_from(["", "#!/bin/sh\n", "#!/bin/bash -e\n"]))
def test_the_proof_never_raises(tokens: list[str], head: str) -> None:
    text = head + " ".join(tokens)
    for verdict in (
        hookproof.prove(text, ["majordomus", "doctor"]),
        hookproof.prove_runner(text),
        *hookproof.losses(text),
    ):
        assert verdict.kind in ("ok", "absent", "unproven", "swallow")


BEFORE = st.sampled_from(
    [
        "exit 0",
        "exec true",
        "trap 'exit 0' EXIT",
        "return",
        "cd /",
        "majordomus() { :; }",
        "set -n",
        "PATH=/tmp",
        "( exit 0 )",
        "false || exit 0",
        "if :; then exit; fi",
        "eval :",
        ". /dev/null",
        "alias majordomus=:",
        "sleep 1",
        "kill $$",
        "exit 0 &",
    ]
)


@given(BEFORE, st.sampled_from(["majordomus doctor || exit $?", "exec majordomus doctor"]))
def test_anything_that_can_end_or_steer_the_hook_before_the_call_is_refused(
    line: str, call: str
) -> None:
    assert hookproof.prove(f"#!/bin/sh\n{call}\n", ["majordomus", "doctor"]).ok
    assert not hookproof.prove(f"#!/bin/sh\n{line}\n{call}\n", ["majordomus", "doctor"]).ok


AFTER = st.sampled_from(
    [
        "|| true",
        "|| :",
        "|| exit 0",
        "|| exit 1",
        "; true",
        "; exit 0",
        "| cat",
        "&",
        "&& echo ok; echo",
        "|| echo failed",
        "; echo done",
    ]
)


@given(AFTER)
def test_anything_that_can_discard_the_status_after_the_call_is_refused(tail: str) -> None:
    text = f"#!/bin/sh\nmajordomus doctor {tail}\n"
    assert not hookproof.prove(text, ["majordomus", "doctor"]).ok
    assert hookproof.losses(text)


PLAIN_WORD = st.text(alphabet=sorted(hookcall.PLAIN), min_size=1, max_size=8)


@given(st.lists(PLAIN_WORD | st.sampled_from(["if", "in", "for", "exit", "a=b", "exec",
                                              "majordomus", "."]),
                min_size=1, max_size=4), st.booleans())  # fmt: skip
def test_the_printed_hook_is_proven_as_the_parser_proves_it(words: list[str], same: bool) -> None:
    text = "#!/bin/sh\n" + " ".join(words) + " || exit $?\n"
    declared = words if same else [words[0], "other"]
    fast = hookcall.proven(text, declared, [words[0]])
    full = hookproof.run(text, hooktarget.Target([words[0]], declared[1:]), strict=True)
    assert fast is None or (fast.ok and full.ok and fast.line == full.line), (fast, full)
    if hookcall.printed(text) is not None:
        assert hookproof.run(text, hooktarget.Target([words[0]], words[1:]), strict=True).ok
        read = hookproof.parse(text)
        assert not isinstance(read, hookcall.Verdict)
        probe = hooktarget.Target(["majordomus"], [])
        sites = [c for c in sh_ast.commands(read[0]) if isinstance(c, sh_ast.Simple)]
        for site in (c for c in sites if probe.near(c)):  # what `losses` asks the proof
            assert hookproof.run(text, hooktarget.Site(site, ["majordomus"]), False, read).ok


def test_the_printed_hook_is_recognised_only_exactly() -> None:
    assert hookcall.printed("#!/bin/sh\nmajordomus doctor || exit $?\n") == ["majordomus", "doctor"]
    for text in [
        "#!/bin/sh\nmajordomus doctor || exit $?",
        "#!/bin/sh\nmajordomus doctor || exit $?\n\n",
        "#!/bin/sh\nmajordomus  doctor || exit $?\n",
        "#!/bin/sh -e\nmajordomus doctor || exit $?\n",
        "#!/bin/sh\r\nmajordomus doctor || exit $?\r\n",
        "#!/bin/sh\nmajordomus 'doctor' || exit $?\n",
        "#!/bin/sh\nX=1 || exit $?\n",
        "#!/bin/sh\nin || exit $?\n",  # a reserved word: the shell refuses the line
        "#!/bin/sh\ntime doctor || exit $?\n",
    ]:
        assert hookcall.printed(text) is None, text
