"""The exit-code contract: the interface every tool and hook relies on."""

from __future__ import annotations

import os
import sys
from enum import IntEnum

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import NoReturn


class ExitCode(IntEnum):
    OK = 0
    USAGE = 2
    CONTRACT_UNMET = 10
    DRIFT_FOUND = 11
    MISSING_ARTIFACT = 12
    INTERNAL_ERROR = 13
    REFUSED = 15


def unattended() -> None:
    """Turn off the cyclic garbage collector for the rest of an installed command's run.

    A run lasts a fraction of a second and ends in `exit_now`, so what cycles it leaves are
    never worth collecting; the collector's passes over every object made while modules load
    and records parse cost a few per cent of a run. Reference counting still frees the rest.
    Only the installed executables call this: `main` run in-process keeps the collector.
    """
    import gc

    gc.disable()


def exit_now(code: int) -> NoReturn:
    """End the process with `code`: flush the standard streams, then skip interpreter teardown.

    Teardown frees every object and module one by one, 10-20 ms for a run that read a large
    ledger, and a finished run needs none of it: every file it wrote is closed and every child
    waited for before `main` returns. Installed commands end here; `main` itself returns.
    """
    for stream in (sys.stdout, sys.stderr):
        try:  # noqa: SIM105 - `contextlib` is not imported on the start-up path
            stream.flush()
        except (OSError, ValueError):  # the reader went away, or the stream is closed
            pass
    os._exit(code)
