"""Run short child processes and capture their output, without importing `subprocess`.

`subprocess` (with `threading`, `signal`, `selectors` and `contextlib`) is a measurable share of
a hook-run tool's start-up; the tool only ever needs "run these argv lists, stdin closed, give me
exit code, stdout and stderr". `os.posix_spawnp` plus one `poll` loop does exactly that, for one
process or several at once. The child's working directory is the caller's (git takes `-C`).

Every child has a deadline (`TIMEOUT` seconds from its start unless the caller gives one): a
child still running then is killed with its siblings, and `wait` raises ContractUnmet naming
the command — a git that never answers is a fault of the repository or the machine, reported
in one line, not a hang of a hook.
"""

from __future__ import annotations

import os
import select
import time

from mj_core.errors import ContractUnmet

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Mapping
    from collections.abc import Sequence

Result = tuple[int, bytes, bytes]  # (exit code, stdout, stderr); a signal gives -signum
_CHUNK = 65536
TIMEOUT = 120.0
_SIGKILL = 9  # POSIX; the `signal` module would build its enums on a start-up path


def run_all(
    commands: Sequence[Sequence[str]], env: Mapping[str, str], timeout: float = TIMEOUT
) -> list[Result]:
    """Start every command, read all their output as it comes, wait for each; results in order."""
    return start_all(commands, env, timeout).wait()


class Running:
    """Children started by `start_all` and not yet waited for: the caller works meanwhile.

    `wait` reads every child's output to the end and reaps it; a child whose output fills its
    pipe simply pauses until then. Use it as a context manager where the caller may fail
    before asking: leaving the block reaps whatever is still running, results unread.
    """

    __slots__ = ("_argv", "_children", "_deadline", "_results", "_timeout")

    def __init__(
        self,
        children: list[tuple[int, int, int]],
        argv: Sequence[Sequence[str]] = (),
        timeout: float = TIMEOUT,
    ) -> None:
        self._children = children
        self._argv = argv
        self._timeout = timeout
        self._deadline = time.monotonic() + timeout
        self._results: list[Result] | None = None

    def wait(self) -> list[Result]:
        if self._results is None:
            children, self._children = self._children, []
            fds = [fd for _, out_fd, err_fd in children for fd in (out_fd, err_fd)]
            try:
                buffers = _drain(fds, self._deadline)
            except TimeoutError:
                self._results = []
                hung = [_kill(pid) for pid, _, _ in children]
                raise self._late(hung.index(True) if True in hung else 0) from None
            results = []
            for pid, out_fd, err_fd in children:
                _, status = os.waitpid(pid, 0)
                results.append(
                    (os.waitstatus_to_exitcode(status), buffers[out_fd], buffers[err_fd])
                )
            self._results = results
        return self._results

    def _late(self, which: int) -> ContractUnmet:
        argv = self._argv[which] if which < len(self._argv) else ()
        shown = " ".join(argv) or "a child process"
        if len(shown) > 120:
            shown = shown[:119] + "…"
        return ContractUnmet(
            f"{shown}: did not finish within {self._timeout:g} s and was stopped — "
            "check the repository (a hung file system, a stale lock) and run it again"
        )

    def __enter__(self) -> Running:
        return self

    def __exit__(self, *exc: object) -> None:
        self.wait()


def start_all(
    commands: Sequence[Sequence[str]], env: Mapping[str, str], timeout: float = TIMEOUT
) -> Running:
    """Start every command now; `Running.wait` collects them (results in command order) and
    stops them all once `timeout` seconds have passed from now."""
    if not hasattr(os, "posix_spawnp"):  # pragma: no cover - every supported POSIX has it
        return _Finished(_run_with_subprocess(commands, env, timeout))
    children: list[tuple[int, int, int]] = []
    try:
        for argv in commands:
            children.append(_start(argv, env))
    except BaseException:
        for pid, out_fd, err_fd in children:
            _abandon(pid, out_fd, err_fd)
        raise
    return Running(children, commands, timeout)


def run_input(
    argv: Sequence[str], env: Mapping[str, str], data: bytes, timeout: float = TIMEOUT
) -> Result:
    """Run one command with `data` on its standard input (written as the child reads it,
    while its output is read, so neither pipe can fill and stall the other); past `timeout`
    seconds it is killed and ContractUnmet names it, as `Running.wait` does."""
    in_r, in_w = os.pipe()
    try:
        if in_r <= 2:
            raise OSError("standard descriptors are closed")
        pid, out_fd, err_fd = _start(argv, env, stdin=in_r)
    except BaseException:
        os.close(in_w)
        raise
    finally:
        os.close(in_r)
    try:
        buffers = _drain([out_fd, err_fd], time.monotonic() + timeout, feed=(in_w, data))
    except TimeoutError:
        _kill(pid)
        raise Running([], [argv], timeout)._late(0) from None
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), buffers[out_fd], buffers[err_fd]


def _start(
    argv: Sequence[str], env: Mapping[str, str], stdin: int | None = None
) -> tuple[int, int, int]:
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        if min(out_w, err_w) <= 2:  # a closed standard descriptor was reused: no dup2 no-ops
            raise OSError("standard descriptors are closed")
        actions: list[tuple[object, ...]] = [
            (os.POSIX_SPAWN_DUP2, stdin, 0)
            if stdin is not None
            else (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_DUP2, out_w, 1),
            (os.POSIX_SPAWN_DUP2, err_w, 2),
        ]
        pid = os.posix_spawnp(argv[0], list(argv), dict(env), file_actions=actions)
    except BaseException:
        for fd in (out_r, out_w, err_r, err_w):
            os.close(fd)
        raise
    os.close(out_w)
    os.close(err_w)
    return pid, out_r, err_r


def _drain(
    fds: list[int], deadline: float | None = None, feed: tuple[int, bytes] | None = None
) -> dict[int, bytes]:
    """Read every descriptor to end of file (the pipes close when the children exit), writing
    `feed`'s bytes to its descriptor (then closing it) meanwhile; past `deadline` (a
    `time.monotonic` moment) close them all and raise TimeoutError."""
    chunks: dict[int, list[bytes]] = {fd: [] for fd in fds}
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN)
    open_fds = set(fds)
    sink, pending = feed if feed is not None else (-1, b"")
    if feed is not None:
        os.set_blocking(sink, False)  # a write takes what fits and never waits on the child
        poller.register(sink, select.POLLOUT)
        open_fds.add(sink)
    while open_fds:
        left = None if deadline is None else deadline - time.monotonic()
        ready = poller.poll(None if left is None else max(0, int(left * 1000) + 1))
        if not ready and deadline is not None and time.monotonic() >= deadline:
            for fd in open_fds:
                os.close(fd)
            raise TimeoutError
        for fd, _ in ready:
            if fd == sink:
                try:
                    pending = pending[os.write(sink, pending[:_CHUNK]) :] if pending else b""
                except BlockingIOError:
                    continue
                except BrokenPipeError:  # the child stopped reading: its output says why
                    pending = b""
                if not pending:
                    poller.unregister(sink)
                    os.close(sink)
                    open_fds.discard(sink)
                continue
            data = os.read(fd, _CHUNK)
            if data:
                chunks[fd].append(data)
            else:
                poller.unregister(fd)
                os.close(fd)
                open_fds.discard(fd)
    return {fd: b"".join(parts) for fd, parts in chunks.items()}


def _kill(pid: int) -> bool:
    """Reap `pid`, killing it first if it still runs; True when it had to be killed."""
    done, _ = os.waitpid(pid, os.WNOHANG)
    if done:
        return False
    os.kill(pid, _SIGKILL)
    os.waitpid(pid, 0)
    return True


def _abandon(pid: int, out_fd: int, err_fd: int) -> None:
    os.close(out_fd)
    os.close(err_fd)
    os.waitpid(pid, 0)


class _Finished(Running):  # pragma: no cover - the fallback for a platform without posix_spawnp
    """Results already collected (the `subprocess` fallback runs each command to its end)."""

    __slots__ = ()

    def __init__(self, results: list[Result]) -> None:
        super().__init__([])
        self._results = results


def _run_with_subprocess(
    commands: Sequence[Sequence[str]], env: Mapping[str, str], timeout: float
) -> list[Result]:  # pragma: no cover - the fallback for a platform without posix_spawnp
    import subprocess

    procs = [
        subprocess.Popen(
            list(argv),
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for argv in commands
    ]
    results = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=timeout)
        results.append((proc.returncode, stdout, stderr))
    return results
