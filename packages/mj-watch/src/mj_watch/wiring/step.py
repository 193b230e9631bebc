"""One simple command in the proof's walk: the call itself, the builtins that end or steer the
script (`exit`, `exec`, `set`, `break`, `continue`), and everything else as an unknown status.
"""

from __future__ import annotations

from mj_watch.shell import syntax as ast
from mj_watch.wiring import commands as cmds
from mj_watch.wiring.commands import ANY
from mj_watch.wiring.commands import FAILED
from mj_watch.wiring.commands import NONZERO
from mj_watch.wiring.commands import NOUNSET
from mj_watch.wiring.commands import ZERO
from mj_watch.wiring.state import BRK
from mj_watch.wiring.state import CONT
from mj_watch.wiring.state import EXIT
from mj_watch.wiring.state import FAIL
from mj_watch.wiring.state import NEXT
from mj_watch.wiring.state import OK
from mj_watch.wiring.state import PRE
from mj_watch.wiring.state import Unproven
from mj_watch.wiring.state import short
from mj_watch.wiring.state import with_

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_watch.shell.syntax import Command
    from mj_watch.wiring.state import Out
    from mj_watch.wiring.state import State
    from mj_watch.wiring.walking import Walking

PREFIX_SPECIAL = frozenset(("exit", "exec", "set", "break", "continue"))


def simple(ev: Walking, c: ast.Simple, st: State) -> set[Out]:
    if st[0] == PRE and not st[3] and ev.target.matches(c, ev.loopvar):
        return reach(ev, c, st)
    if ev.strict and st[0] == PRE:
        prefix_command(ev, c, st[1], special=True)
    if not c.words:
        substituted = any(p.kind == ast.SUB for w in c.assigns for p in w.parts)
        return {(NEXT, with_(st, ANY if substituted else ZERO))}
    name = ast.static(c.words[0])
    shown = short(ev.source(c.start, c.end))
    if name is None:
        raise Unproven(c.line, f"`{shown}` runs a command named by an expansion")
    if name in cmds.DANGER:
        raise Unproven(c.line, f"`{name}` {cmds.DANGER[name]}")
    if name in PREFIX_SPECIAL:
        return _special(ev, c, st, name, shown)
    if name in (":", "true", "false"):
        return {(NEXT, with_(st, NONZERO if name == "false" else ZERO))}
    if name in ("[", "test"):
        known = ev.target.file_test(c.words, ev.loopvar or "")
        if known is not None:
            return {(NEXT, with_(st, known))}
    return {(NEXT, with_(st, ANY))}


def _special(ev: Walking, c: ast.Simple, st: State, name: str, shown: str) -> set[Out]:
    if name == "exit":
        code = cmds.exit_status(c.words, st[2])
        if code is None:
            raise Unproven(c.line, f"`{shown}` has more than one argument")
        return {ev.exit(st, code, c.line, f"`{shown}`")}
    if name in ("break", "continue"):
        if not ev.loops:
            raise Unproven(c.line, f"`{name}` outside a loop")
        return {(BRK if name == "break" else CONT, with_(st, ZERO))}
    if name == "exec":
        if len(c.words) == 1:
            return {(NEXT, with_(st, ZERO))}  # redirections only: the shell carries on
        if ev.strict and st[0] == PRE:
            raise Unproven(c.line, f"`{shown}` replaces the hook with another program")
        return {ev.exit(st, ANY, c.line, f"`{shown}`")}
    try:
        flags, fails = cmds.set_options(c.words[1:], st[1], ev.bash)
    except ValueError as exc:
        raise Unproven(c.line, str(exc)) from None
    outs = {(NEXT, (st[0], flags, ZERO, st[3]))}
    if fails:
        outs.add(ev.exit(st, NONZERO, c.line, f"`{shown}` (dash has no pipefail)"))
    return outs


def reach(ev: Walking, c: ast.Simple, st: State) -> set[Out]:
    """The call: it succeeds (nothing after it can undo a pass) or fails with its status."""
    if ev.strict:
        if c.assigns or c.arrays:
            raise Unproven(c.line, "the call is given variables of its own (`NAME=value cmd`)")
        for redir in c.redirs:
            problem = cmds.redirect_problem(redir)
            if problem:
                raise Unproven(c.line, f"{problem} on the call")
    if ev.call is None:
        ev.call, ev.call_flags = c, st[1]
    failed = (FAIL, st[1], FAILED, True)
    succeeded: Out = (OK, st) if ev.loopvar is None else (NEXT, (PRE, st[1], ZERO, True))
    replaced = ast.static(c.words[0]) == "exec"
    return {succeeded, (EXIT, failed) if replaced else (NEXT, failed)}


def prefix_command(ev: Walking, c: Command, flags: int, special: bool = False) -> None:
    """Raise unless `c` may run before the call (see `wiring.commands`)."""
    if not isinstance(c, ast.Simple):
        raise Unproven(c.line, "a compound command in a pipeline before the call")
    nounset = bool(flags & NOUNSET)
    for word in c.assigns:
        variable = ast.assignment(word) or ""
        if not cmds.safe_name(variable):
            raise Unproven(c.line, f"`{variable}=…` before the call changes how the call runs")
    for variable, items in c.arrays:
        if not cmds.safe_name(variable.removesuffix("+")):
            raise Unproven(c.line, f"`{variable}=(…)` before the call changes how the call runs")
        for word in items:
            ev.check(c.line, cmds.word_problem(word, nounset))
    for word in c.assigns + c.words:
        ev.check(c.line, cmds.word_problem(word, nounset))
    for redir in c.redirs:
        ev.check(c.line, cmds.redirect_problem(redir))
    if not c.words:
        return
    name = ast.static(c.words[0])
    if name is None or name in cmds.DANGER or (special and name in PREFIX_SPECIAL):
        return  # `simple` names the problem, or follows the builtin
    if name == "cd":
        raise Unproven(c.line, "`cd` before the call changes the directory it runs in")
    if name not in cmds.SAFE and not ev.target.near(c):
        shown = short(ev.source(c.start, c.end))
        raise Unproven(c.line, f"`{shown}` runs before the call, and the proof cannot see into it")
    ev.check(c.line, cmds.arguments_problem(name, c.words))
