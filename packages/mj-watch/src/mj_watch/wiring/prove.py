"""Static proof that a hook runs the declared command and keeps its exit status.

`prove(text, argv)` is OK (with the call's line) only when every path through the script
reaches `argv` as a simple command with exactly those arguments, and every way the script can
end after that command fails carries its status: `cmd || exit $?` (or bare `|| exit`),
`exec cmd`, `cmd` as the script's last command, or `cmd` under `set -e` outside a condition.
`|| exit 1` is not enough: the status is the interface (10, 12 and 13 mean different things).

The script must be read by a real shell: no `#!` line (git then runs it with `sh`), or sh, bash
or dash from a system directory, directly or through `/usr/bin/env`, with at most one option
cluster of `-e -u -x -v`. CRLF line endings are refused: with them the kernel looks for
`/bin/sh\\r` and git cannot run the hook at all (and without a `#!` every word ends in `\\r`).
Everything else is FAIL "unproven" with the line and the reason; see `wiring.evaluate` for the walk.
"""

from __future__ import annotations

from mj_watch.shell import parser as sh_parser
from mj_watch.shell import syntax as ast
from mj_watch.shell.lexer import ShellSyntax
from mj_watch.wiring import call as hookcall
from mj_watch.wiring import target as hooktarget
from mj_watch.wiring.call import Verdict
from mj_watch.wiring.commands import ERREXIT
from mj_watch.wiring.commands import FAILED
from mj_watch.wiring.commands import NOUNSET
from mj_watch.wiring.commands import ZERO
from mj_watch.wiring.evaluate import Eval
from mj_watch.wiring.state import BRK
from mj_watch.wiring.state import CONT
from mj_watch.wiring.state import FAIL
from mj_watch.wiring.state import NEXT
from mj_watch.wiring.state import OK
from mj_watch.wiring.state import PRE
from mj_watch.wiring.state import Unproven
from mj_watch.wiring.state import short

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Sequence

    from mj_watch.wiring.state import Out
    from mj_watch.wiring.target import Target

SHELLS = {"sh": False, "dash": False, "bash": True}  # name → bash syntax
SYSTEM = ("/bin/", "/usr/bin/", "/usr/local/bin/", "/opt/homebrew/bin/")
ENVS = ("/usr/bin/env", "/bin/env")


def prove(text: str, declared: Sequence[str], commands: Sequence[str] = ()) -> Verdict:
    """Does the hook `text` run `declared` (its first word, or any of `commands`)?"""
    names = [declared[0], *(c for c in commands if c != declared[0])]
    fast = hookcall.proven(text, declared, names)
    if fast is not None:
        return fast
    return run(text, hooktarget.Target(names, declared[1:]), strict=True)


def prove_runner(text: str) -> Verdict:
    """Does the hook run every file of its `<hook>.d/` directory and stop on a failing one?"""
    return run(text, hooktarget.Runner(), strict=True)


def losses(text: str, names: Sequence[str] = ("majordomus",)) -> list[Verdict]:
    """For every call of `names` in the hook: how its failure can be lost (none when it
    cannot). Nothing is asked of what runs before a call or whether every path reaches it."""
    if hookcall.printed(text) is not None:
        return []  # `#!/bin/sh` and `<words> || exit $?`: nothing of a status is lost
    read = parse(text)
    if isinstance(read, Verdict):
        mentioned = any(n in text for n in names)
        return [read] if mentioned and read.kind != "ok" else []
    probe = hooktarget.Target(names, [])
    found = []
    for command in ast.commands(read[0]):
        if isinstance(command, ast.Simple) and probe.near(command):
            verdict = run(text, hooktarget.Site(command, names), strict=False, read=read)
            if not verdict.ok:
                found.append(verdict)
    return found


def shebang(text: str) -> tuple[bool, int] | Verdict:
    """(bash syntax, the flags the `#!` line sets), or why the hook is not a shell script."""
    first = text.split("\n", 1)[0]
    nul = text.find("\0")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        return Verdict("unproven", line, "a NUL byte, which sh drops before reading the words")
    crlf = text.find("\r\n")
    if crlf >= 0:
        line = text.count("\n", 0, crlf) + 1
        return Verdict("unproven", line, "CRLF line endings: git cannot run it under sh as written")
    if not first.startswith("#!"):
        return False, 0  # git runs a file without `#!` with sh
    words = first[2:].split(None, 1)  # the kernel passes the rest as one argument
    interpreter = words[0] if words else ""
    option = words[1].strip() if len(words) > 1 else ""
    if interpreter in ENVS:
        if not option or any(c in option for c in " \t/"):
            return _not_shell(first)  # env looks the one argument up as a name on PATH
        interpreter, option = "/usr/bin/" + option, ""
    directory, _, name = interpreter.rpartition("/")
    if name not in SHELLS or directory + "/" not in SYSTEM:
        return _not_shell(first)
    if option in ("", "-"):
        return SHELLS[name], 0
    if not option.startswith("-") or any(c not in "euxv" for c in option[1:]):
        return Verdict("unproven", 1, f"`{first}`: the option {option} is not followed")
    flags = (ERREXIT if "e" in option else 0) | (NOUNSET if "u" in option else 0)
    return SHELLS[name], flags


def _not_shell(first: str) -> Verdict:
    return Verdict("unproven", 1, f"`{short(first)}` does not run it with sh, bash or dash")


def parse(text: str) -> tuple[ast.Seq, bool, int] | Verdict:
    head = shebang(text)
    if isinstance(head, Verdict):
        return head
    bash, flags = head
    try:
        return sh_parser.parse(text, bash), bash, flags
    except ShellSyntax as exc:
        line = text.count("\n", 0, exc.pos) + 1
        return Verdict("unproven", line, f"does not parse as a shell script: {exc.message}")
    except RecursionError:
        return Verdict("unproven", 1, "nested too deeply to read")


def run(
    text: str, target: Target, strict: bool, read: tuple[ast.Seq, bool, int] | None = None
) -> Verdict:
    parsed = parse(text) if read is None else read
    if isinstance(parsed, Verdict):
        return parsed
    tree, bash, flags = parsed
    ev = Eval(text, target, strict, bash)
    try:
        return _conclude(ev, tree, ev.seq(tree, (PRE, flags, ZERO, False), False))
    except Unproven as exc:
        if strict and not target.present(tree):
            return _absent(ev, tree)  # why a path ends early matters less than the call missing
        return Verdict(exc.kind, exc.line, exc.reason)
    except RecursionError:
        return Verdict("unproven", 1, "nested too deeply to follow")


def _conclude(ev: Eval, tree: ast.Seq, outs: set[Out]) -> Verdict:
    reached = False
    for kind, state in outs:
        if kind in (BRK, CONT):
            raise Unproven(1, "`break` or `continue` outside a loop")
        if kind == NEXT and state[0] == FAIL and state[2] != FAILED:
            ev.lost(ev.call.line if ev.call else 1)
        reached = reached or kind == OK or state[0] == FAIL
    unreached = any(kind == NEXT and state[0] == PRE for kind, state in outs)
    if reached and not (unreached and ev.strict):
        return Verdict("ok", ev.call.line if ev.call else 1)
    if not ev.strict:
        return Verdict("ok", 0)  # the call never runs: nothing of its status is lost
    return _absent(ev, tree)


def _absent(ev: Eval, tree: ast.Seq) -> Verdict:
    calls = [c for c in ast.commands(tree) if isinstance(c, ast.Simple)]
    for command in calls:
        if ev.target.matches(command, None):
            return Verdict("unproven", command.line, "no path through the hook reaches the call")
    reason = f"does not invoke `{ev.target.shown}`"
    near = [c for c in calls if ev.target.near(c)]
    if near:
        shown = short(ev.source(near[0].start, near[0].end))
        return Verdict("absent", near[0].line, f"{reason} (line {near[0].line} runs `{shown}`)")
    return Verdict("absent", 0, reason)


__all__ = ["Verdict", "losses", "parse", "prove", "prove_runner", "run", "shebang"]
