"""What the steps of a hook's walk (`wiring.step`: a simple command, `wiring.loop`: a loop) ask of
the walker (`wiring.evaluate.Eval`): its settings, what it has reached, and the walk of a nested
list, as a type. `Eval` is one; this module is imported for types only, so the walker and the
steps it calls are no circle."""

from __future__ import annotations

TYPE_CHECKING = False  # the type exists for the type checker only: nothing imports it at run time
if TYPE_CHECKING:
    from typing import Protocol

    from mj_watch.shell import syntax as ast
    from mj_watch.wiring.state import Out
    from mj_watch.wiring.state import State
    from mj_watch.wiring.target import Target

    class Walking(Protocol):
        target: Target
        strict: bool
        bash: bool
        call: ast.Simple | None  # the first call the walk reached
        call_flags: int
        loopvar: str | None  # inside a runner's loop: the variable naming the file
        loops: int

        def source(self, start: int, end: int) -> str: ...

        def seq(self, seq: ast.Seq, st: State, ign: bool) -> set[Out]: ...

        def exit(self, st: State, status: int, line: int, what: str) -> Out: ...

        def check(self, line: int, problem: str | None) -> None: ...
