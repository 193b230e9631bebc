"""Running one hook the way git runs it, for `doctor --prove`: its arguments and standard
input by hook type, the checkout's root as working directory, a scrubbed environment with the
shims first on PATH, a time limit after which the hook and everything it started are killed.
A file without `#!` is run with `/bin/sh`, as git does.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal

from mj_core.git import questions as git

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import subprocess
    from pathlib import Path
    from typing import BinaryIO

ZERO_ID = "0" * 40


class Run:
    __slots__ = ("code", "output", "timed_out")

    def __init__(self, code: int | None, timed_out: bool, output: str) -> None:
        self.code = code  # None: it could not be started
        self.timed_out = timed_out
        self.output = output


def environment(shims: Path) -> dict[str, str]:
    env = git.clean_env()
    for name in ("BASH_ENV", "ENV"):  # read by a shell at start: not the hook's own text
        env.pop(name, None)
    env["PATH"] = f"{shims}{os.pathsep}{env.get('PATH', os.defpath)}"
    return env


def arguments(kind: str, tree: Path, scratch: Path) -> tuple[list[str], bytes]:
    """What git passes a hook of type `kind` (githooks(5)), for a commit of HEAD."""
    head = git.out("rev-parse", "HEAD", cwd=tree) or ZERO_ID
    if kind in ("commit-msg", "prepare-commit-msg", "applypatch-msg"):
        message = scratch / "COMMIT_EDITMSG"
        message.write_text("proof\n", encoding="utf-8")
        return [str(message), *(["message"] if kind == "prepare-commit-msg" else [])], b""
    if kind == "pre-push":
        line = f"HEAD {head} refs/heads/majordomus-prove {ZERO_ID}\n"
        return ["origin", "majordomus-prove"], line.encode()
    table = {
        "post-checkout": [head, head, "1"],
        "post-merge": ["0"],
        "pre-rebase": ["HEAD"],
        "post-rewrite": ["amend"],
        "reference-transaction": ["prepared"],
    }
    return table.get(kind, []), b""


def run_hook(
    path: Path, kind: str, *, tree: Path, shims: Path, scratch: Path, timeout: float
) -> Run:
    import subprocess  # only `doctor --prove` runs anything but git

    args, stdin = arguments(kind, tree, scratch)
    log = scratch / f"output-{kind}"
    with log.open("wb") as out:
        try:
            proc = _start([str(path), *args], tree, environment(shims), out)
        except OSError as exc:
            if exc.errno != errno.ENOEXEC:
                return Run(None, False, exc.strerror or str(exc))
            proc = _start(["/bin/sh", str(path), *args], tree, environment(shims), out)
        timed_out = False
        try:
            proc.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            _kill(proc)
    return Run(proc.returncode, timed_out, log.read_text(encoding="utf-8", errors="replace"))


def _start(
    argv: list[str], cwd: Path, env: dict[str, str], out: BinaryIO
) -> subprocess.Popen[bytes]:
    import subprocess

    return subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: one kill reaches all it started
    )


def _kill(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
