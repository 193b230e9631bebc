"""One measured process: wall time from fork to reaped, its CPU time, and its peak memory.

Linux keeps the high-water mark of the memory a process had *before* `exec` in its
`ru_maxrss`, so a child forked straight from this (large) interpreter would report our size,
not its own. Each target is therefore started by a minimal launcher (`python -I -S`, a few
megabytes, below any Python target's own peak) that forks, execs the target without a shell,
reaps it with `os.wait4` and reports wall milliseconds, CPU milliseconds (user + system of the
child and of the processes it reaped: its git calls), `ru_maxrss` and the exit code on a
pipe. The launcher's own start-up is outside the measured interval. Stdout is discarded; the
last stderr line is kept to explain a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

CLOCK = "perf_counter"

_LAUNCHER = """
import os, sys, time
fd, argv = int(sys.argv[1]), sys.argv[2:]
began = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
ms = (time.perf_counter() - began) * 1000
cpu = (usage.ru_utime + usage.ru_stime) * 1000
os.write(fd, f"{ms} {cpu} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}".encode())
"""


class Sample:
    """One measured run: wall time, CPU time, peak memory, exit code."""

    __slots__ = ("code", "cpu_ms", "ms", "peak_kb", "said")

    def __init__(
        self, ms: float, peak_kb: int, code: int, said: str = "", cpu_ms: float = 0.0
    ) -> None:
        self.ms = ms
        self.cpu_ms = cpu_ms  # user + system, the child's and its reaped children's
        self.peak_kb = peak_kb
        self.code = code
        self.said = said  # the last line the process wrote on stderr


def run(argv: Sequence[str], cwd: Path, env: dict[str, str], stdin: bytes | None = None) -> Sample:
    """Run `argv` in `cwd` under the launcher; its wall time, peak memory and exit code."""
    read, write = os.pipe()
    launcher = (sys.executable, "-I", "-S", "-c", _LAUNCHER, str(write), *argv)
    with tempfile.TemporaryFile() as err:
        try:
            subprocess.run(
                launcher,
                cwd=cwd,
                env=env,
                input=stdin if stdin is not None else b"",
                stdout=subprocess.DEVNULL,
                stderr=err,
                pass_fds=(write,),
                check=True,
            )
        finally:
            os.close(write)
            with os.fdopen(read, "rb") as pipe:
                report = pipe.read().decode().split()
        err.seek(0)
        said = err.read().decode("utf-8", "replace").strip().splitlines()
    ms, cpu, maxrss, code = float(report[0]), float(report[1]), int(report[2]), int(report[3])
    return Sample(ms, _kilobytes(maxrss), code, said[-1] if said else "", cpu_ms=cpu)


def _kilobytes(maxrss: int) -> int:
    return maxrss // 1024 if sys.platform == "darwin" else maxrss
