"""`exit_now`: the exit code and everything buffered reach the caller; teardown is skipped."""

from __future__ import annotations

import os
import subprocess
import sys

PROGRAM = """
import sys
from mj_core.exit_codes import exit_now
try:
    sys.stdout.write("buffered, no newline")
except BrokenPipeError:  # the command's own error funnel stops quietly on this
    pass
sys.stderr.write("said on stderr")
import atexit
atexit.register(lambda: print("teardown ran"))
exit_now(int(sys.argv[1]))
"""


def run(code: str, *, stdout: int = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROGRAM, code],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )


def test_code_and_buffered_output_reach_the_caller() -> None:
    for code in (0, 10, 13):
        proc = run(str(code))
        assert proc.returncode == code
        assert proc.stdout == "buffered, no newline"  # flushed; the atexit hook never ran
        assert proc.stderr == "said on stderr"


def test_a_closed_stdout_is_not_an_error() -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written
    try:
        proc = run("11", stdout=write)
    finally:
        os.close(write)
    assert proc.returncode == 11
    assert "Traceback" not in proc.stderr
