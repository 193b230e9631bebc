"""The proof: every path through a hook reaches the declared call, and the call's failure
becomes the hook's exit status.

The script is walked as the shell would run it, over an abstract state (phase, flags, `$?`,
whether the call ran): each construct maps one state to the set of its outcomes (carry on, exit
with a status, the call succeeded, break, continue). A status the proof cannot know is ANY and
both branches are followed. In the `PRE` phase (the call has not run) only commands from
`wiring.commands.SAFE` may run and nothing may end the script; at the call the proof splits: the
call
succeeded (done: what follows cannot undo a passing check) or failed (phase `FAIL`), after
which every way the script ends must carry the call's own status. Whatever the walk cannot
follow raises `Unproven` with the line and the reason. `strict=False` (for undeclared hooks)
drops the `PRE` rules and keeps only the question whether a failing call's status survives.
"""

from __future__ import annotations

from mj_watch.shell import syntax as ast
from mj_watch.wiring import commands as cmds
from mj_watch.wiring import loop as hookloop
from mj_watch.wiring import step as hookstep
from mj_watch.wiring.commands import ANY
from mj_watch.wiring.commands import ERREXIT
from mj_watch.wiring.commands import FAILED
from mj_watch.wiring.commands import NONZERO
from mj_watch.wiring.commands import PLUS_E
from mj_watch.wiring.commands import ZERO
from mj_watch.wiring.state import EXIT
from mj_watch.wiring.state import FAIL
from mj_watch.wiring.state import NEXT
from mj_watch.wiring.state import OK
from mj_watch.wiring.state import PRE
from mj_watch.wiring.state import Unproven
from mj_watch.wiring.state import negate
from mj_watch.wiring.state import short
from mj_watch.wiring.state import split
from mj_watch.wiring.state import with_

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_watch.shell.syntax import Command
    from mj_watch.wiring.state import Out
    from mj_watch.wiring.state import State
    from mj_watch.wiring.target import Target


class Eval:
    def __init__(self, text: str, target: Target, strict: bool, bash: bool) -> None:
        self.text = text
        self.target = target
        self.strict = strict
        self.bash = bash
        self.call: ast.Simple | None = None  # the first call the walk reached
        self.call_flags = 0
        self.loopvar: str | None = None  # inside a runner's loop: the variable naming the file
        self.loops = 0

    def source(self, start: int, end: int) -> str:
        return " ".join(self.text[start:end].split())

    # lists

    def seq(self, seq: ast.Seq, st: State, ign: bool) -> set[Out]:
        outs: set[Out] = set()
        current = {st}
        for and_or, background in seq.items:
            done: set[Out] = set()
            nxt: set[State] = set()
            for s in current:
                found = self.background(and_or, s) if background else self.and_or(and_or, s, ign)
                for out in found:
                    (nxt.add(out[1]) if out[0] == NEXT else done.add(out))
            self.no_skip(and_or, done, nxt)
            outs |= done
            current = nxt
            if not current:
                break
        return outs | {(NEXT, s) for s in current}

    def no_skip(self, and_or: ast.AndOr, done: set[Out], nxt: set[State]) -> None:
        if not self.strict:
            return
        reached = any(o[0] == OK or o[1][0] == FAIL or o[1][3] for o in done) or any(
            s[0] == FAIL or s[3] for s in nxt
        )
        if reached and any(s[0] == PRE and not s[3] for s in nxt):
            shown = self.source(and_or.start, and_or.end)
            raise Unproven(and_or.line, f"`{short(shown)}` has a path that skips the call")

    def background(self, and_or: ast.AndOr, st: State) -> set[Out]:
        if self.target.within(and_or, self.loopvar):
            raise Unproven(and_or.line, "`&` runs the call in the background: nothing waits")
        if self.strict and st[0] == PRE:
            raise Unproven(and_or.line, "a command runs in the background (`&`) before the call")
        return {(NEXT, with_(st, ZERO))}

    def and_or(self, and_or: ast.AndOr, st: State, ign: bool) -> set[Out]:
        outs: set[Out] = set()
        todo, seen = [(0, st)], set()
        last = len(and_or.parts) - 1
        while todo:
            index, s = todo.pop()
            if (index, s) in seen:
                continue
            seen.add((index, s))
            for out in self.pipeline(and_or.parts[index], s, ign or index < last):
                if out[0] != NEXT:
                    outs.add(out)
                    continue
                for status in split(out[1][2]):
                    after = with_(out[1], status)
                    following = index + 1
                    while following <= last and (and_or.ops[following - 1] == "&&") != (
                        status == ZERO
                    ):
                        following += 1  # `a && b || c`: a failing `a` skips `b`, runs `c`
                    if following > last:
                        outs.add((NEXT, after))
                    else:
                        todo.append((following, after))
        return outs

    def pipeline(self, pipeline: ast.Pipeline, st: State, ign: bool) -> set[Out]:
        if len(pipeline.cmds) > 1:
            for command in pipeline.cmds:
                if self.target.within(command, self.loopvar):
                    raise Unproven(
                        pipeline.line, "the call is part of a pipeline (`|`): its status is lost"
                    )
                if self.strict and st[0] == PRE:
                    self.prefix_only(command, st[1])
            outs = {(NEXT, with_(st, ANY))}
        else:
            outs = self.command(pipeline.cmds[0], st, ign or pipeline.bang)
        if pipeline.bang:
            return {(k, with_(s, negate(s[2])) if k == NEXT else s) for k, s in outs}
        first = pipeline.cmds[0]
        simple = isinstance(first, ast.Simple) or (isinstance(first, ast.Group) and first.subshell)
        if ign or not (simple or len(pipeline.cmds) > 1):
            return outs
        return self.errexit(outs, pipeline)

    def errexit(self, outs: set[Out], pipeline: ast.Pipeline) -> set[Out]:
        """`set -e`: a failing pipeline outside a condition ends the script with its status."""
        result: set[Out] = set()
        for kind, s in outs:
            if kind != NEXT or not s[1] & ERREXIT or s[2] == ZERO:
                result.add((kind, s))
                continue
            if s[2] == ANY:
                result.add((NEXT, with_(s, ZERO)))
            status = NONZERO if s[2] == ANY else s[2]
            shown = short(self.source(pipeline.cmds[0].start, pipeline.cmds[-1].end))
            result.add(self.exit(s, status, pipeline.line, f"under `set -e`, a failing `{shown}`"))
        return result

    def exit(self, st: State, status: int, line: int, what: str) -> Out:
        """The script ends here with `status`, when the proof allows it to."""
        early = st[0] == PRE and (self.strict or self.loopvar)
        if early and not (self.target.blocking_exits and status == NONZERO):
            where = "before every sub-hook has run" if st[3] else "before the call"
            raise Unproven(line, f"{what} can end the hook {where}")
        if st[0] == FAIL and status != FAILED:
            self.lost(line, what)
        return (EXIT, (st[0], st[1], status, st[3]))

    def lost(self, line: int, what: str = "") -> None:
        call = self.call
        assert call is not None
        shown = self.source(call.start, call.end)
        end = self.text.find("\n", call.end)
        tail = self.text[call.end : len(self.text) if end < 0 else end].strip()
        after = tail.lstrip(";&| ").split()
        if tail and not (after and after[0] in ("then", "do", "else", "fi", "done", "esac", "}")):
            reason = f"`{short(tail)}` after `{shown}` discards its status"
        elif what and line != call.line:
            reason = f"{what} (line {line}) ends the hook with another status than `{shown}`"
        else:
            reason = f"the hook carries on after `{shown}` fails"
        if self.call_flags & PLUS_E:
            reason += " with `set +e` in force"
        raise Unproven(call.line, reason + "; end the call with `|| exit $?`", "swallow")

    # commands

    def command(self, command: Command, st: State, ign: bool) -> set[Out]:
        if isinstance(command, ast.Simple):
            return hookstep.simple(self, command, st)
        if isinstance(command, ast.Func):
            raise Unproven(command.line, f"defines a function `{command.name}`")
        if self.strict and st[0] == PRE:
            for redir in command.redirs:
                self.check(command.line, cmds.redirect_problem(redir))
        if isinstance(command, ast.Group):
            return (
                self.subshell(command, st) if command.subshell else self.seq(command.body, st, ign)
            )
        if isinstance(command, ast.If):
            return self.branch(command, st, ign)
        if isinstance(command, ast.Case):
            return self.case(command, st, ign)
        if isinstance(command, ast.For) and self.target.runs_each(command):
            return self.loop(command, st, ign, runner=True)
        if self.strict and self.target.within(command, self.loopvar):
            raise Unproven(command.line, "the call is inside a loop, which may not run it")
        if self.strict and st[0] == PRE:
            raise Unproven(command.line, "a loop runs before the call")
        return self.loop(command, st, ign, runner=False)

    def check(self, line: int, problem: str | None) -> None:
        if problem:
            raise Unproven(line, f"{problem} before the call")

    def prefix_only(self, command: Command, flags: int) -> None:
        hookstep.prefix_command(self, command, flags)

    def subshell(self, group: ast.Group, st: State) -> set[Out]:
        if self.target.within(group, self.loopvar):
            raise Unproven(group.line, "the call runs in a subshell `( … )`")
        if self.strict and st[0] == PRE:
            raise Unproven(group.line, "a subshell `( … )` runs before the call")
        return {(NEXT, with_(st, ANY))}

    def branch(self, node: ast.If, st: State, ign: bool) -> set[Out]:
        outs: set[Out] = set()
        pending = {st}
        for cond, body in node.arms:
            untaken: set[State] = set()
            for s in pending:
                for out in self.seq(cond, s, True):
                    if out[0] != NEXT:
                        outs.add(out)
                        continue
                    for status in split(out[1][2]):
                        after = with_(out[1], status)
                        if status == ZERO:
                            outs |= self.seq(body, after, ign)
                        else:
                            untaken.add(after)
            pending = untaken
        for s in pending:
            outs |= self.seq(node.orelse, s, ign) if node.orelse else {(NEXT, with_(s, ZERO))}
        return outs

    def case(self, node: ast.Case, st: State, ign: bool) -> set[Out]:
        if self.strict and st[0] == PRE:
            for word in [node.word] + [w for patterns, _ in node.arms for w in patterns]:
                self.check(node.line, cmds.word_problem(word, bool(st[1] & cmds.NOUNSET)))
        outs: set[Out] = set()
        for patterns, body in node.arms:
            outs |= self.seq(body, st, ign) if body.items else {(NEXT, with_(st, ZERO))}
            if any(_matches_all(p) for p in patterns):
                return outs
        return outs | {(NEXT, with_(st, ZERO))}  # no pattern matched

    def loop(self, node: Command, st: State, ign: bool, runner: bool) -> set[Out]:
        saved, self.loops = self.loopvar, self.loops + 1
        if runner:
            assert isinstance(node, ast.For)
            self.loopvar = node.var
        try:
            return hookloop.iterate(self, node, st, ign, runner)
        finally:
            self.loopvar, self.loops = saved, self.loops - 1


def _matches_all(pattern: ast.Word) -> bool:
    return (
        len(pattern.parts) == 1
        and pattern.parts[0].kind == ast.GLOB
        and (pattern.parts[0].value == "*")
    )
