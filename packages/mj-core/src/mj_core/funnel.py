"""The single error funnel every executable's `main` runs inside (`guard`), in a module of its
own so that a path answering before the argument parser is built (`majordomus.plan_fast`) has
the same funnel without importing `argparse`."""

from __future__ import annotations

import os
import sys

from mj_core import sanitise
from mj_core.errors import MjError
from mj_core.exit_codes import ExitCode

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO


def guard(prog: str, body: Callable[[], int], stderr: IO[str] | None = None) -> int:
    """The single error funnel: expected errors → their code and one line; anything else → 13.

    Inside it, what stdout and stderr print shows control characters escaped
    (`sanitise.escape_streams`): no text a worker stored can drive the terminal."""
    sanitise.escape_streams()
    try:
        return _funnel(prog, body, stderr if stderr is not None else sys.stderr)
    finally:
        sanitise.restore_streams()


def _funnel(prog: str, body: Callable[[], int], err: IO[str]) -> int:
    try:
        try:
            return body()
        finally:
            _settle()
    except MjError as exc:
        text = exc.message if exc.message.startswith(prog) else f"{prog}: {exc.message}"
        err.write(text.splitlines()[0] if text else prog)
        err.write("\n")
        return int(exc.code)
    except SystemExit as exc:  # argparse's --help
        return exc.code if isinstance(exc.code, int) else 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as exc:
        if os.environ.get("MJ_DEBUG") == "1":
            raise
        fault = _world(exc)
        if fault is not None:  # the last resort: a file the world made unreadable or absent
            err.write(f"{prog}: {fault.message}\n")
            return int(fault.code)
        err.write(f"{prog}: internal error: {type(exc).__name__}: {exc}\n")
        return int(ExitCode.INTERNAL_ERROR)


def _settle() -> None:
    """Reap the git questions begun ahead that no stage asked for (`mj_core.git.run.ahead`): a
    stage whose answer another stage would use (or another process, in a printed pipeline)
    cannot wait for it itself. git is not imported for a run that never asked it."""
    runner = sys.modules.get("mj_core.git.run")
    if runner is not None:
        runner.settle()


def _world(exc: Exception) -> MjError | None:
    """An OSError naming a file that the world caused (absent 12; no space, read-only,
    no permission, not a file 15), as its contract error; anything else stays a bug (13)."""
    if not isinstance(exc, OSError) or exc.filename is None:
        return None
    from mj_core.errors import world_fault

    return world_fault(exc)
