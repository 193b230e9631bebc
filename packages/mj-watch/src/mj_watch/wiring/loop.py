"""Loops in the hook proof: followed to a fixed point over the abstract states.

A loop of a runner (`for h in "$0.d"/*; do ...; done`) is the call itself: every round must
run the sub-hook, a failing sub-hook must end the hook with its status, nothing may `break`;
when the loop is done every sub-hook ran and passed. Any other loop may run its body any number
of times (a `for` also none) and is left at every round's end.
"""

from __future__ import annotations

from mj_watch.shell import syntax as ast
from mj_watch.wiring.commands import ANY
from mj_watch.wiring.commands import ZERO
from mj_watch.wiring.state import BRK
from mj_watch.wiring.state import CONT
from mj_watch.wiring.state import FAIL
from mj_watch.wiring.state import NEXT
from mj_watch.wiring.state import OK
from mj_watch.wiring.state import Unproven
from mj_watch.wiring.state import split
from mj_watch.wiring.state import with_

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_watch.shell.syntax import Command
    from mj_watch.wiring.state import Out
    from mj_watch.wiring.state import State
    from mj_watch.wiring.walking import Walking


def iterate(ev: Walking, node: Command, st: State, ign: bool, runner: bool) -> set[Out]:
    assert isinstance(node, (ast.For, ast.Loop))
    outs: set[Out] = set()
    leave: set[State] = set() if runner or isinstance(node, ast.Loop) else {with_(st, ZERO)}
    seen: set[State] = set()
    todo = [st]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        for entry in _entries(ev, node, state, outs, leave):
            start = with_(entry, called=False) if runner else entry
            for kind, after in ev.seq(node.body, start, ign):
                if kind in (NEXT, CONT):
                    if runner:
                        _round(node, after)
                    again = with_(after, called=False) if runner else after
                    todo.append(again)
                    if isinstance(node, ast.For):
                        leave.add(again)
                elif kind == BRK:
                    if runner:
                        raise Unproven(node.line, "`break` ends the runner before every sub-hook")
                    leave.add(with_(after, ZERO))
                else:
                    outs.add((kind, after))
    if runner:
        return outs | {(OK, st)}
    return outs | {(NEXT, s) for s in leave}


def _entries(
    ev: Walking, node: Command, st: State, outs: set[Out], leave: set[State]
) -> list[State]:
    """The states a round of the body starts from (a `while` asks its condition first)."""
    if not isinstance(node, ast.Loop):
        return [st]
    entries = []
    for kind, after in ev.seq(node.cond, st, True):
        if kind != NEXT:
            outs.add((kind, after))
            continue
        for status in split(after[2]):
            if (status == ZERO) != node.until:
                entries.append(with_(after, status))
            else:
                leave.add(with_(after, ANY))
    return entries


def _round(node: Command, after: State) -> None:
    if after[0] == FAIL:
        raise Unproven(
            node.line,
            'the runner carries on after a sub-hook fails; run each one as `"$h" || exit $?`',
            "swallow",
        )
    if not after[3]:
        raise Unproven(node.line, "the runner has a path that skips a sub-hook")
