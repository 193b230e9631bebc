"""The plan's claims across the worktrees of one clone: of the worktrees that `plan start` one
issue, one holds it; the others are refused (15) naming the holder.

Each worktree keeps its own `.ai/local/` (its ledger, its issue files, its plan lock), so what
they share is git's common directory (`git rev-parse --git-common-dir`). There, in `majordomus/`:

- `plan.lock`, taken (fcntl, exclusive) by every plan writer around its judgement and its write,
  and naming its holder while held: pid, the process's start time, worktree. The kernel drops the
  lock when its process ends, however it ends; the holder's line is cleared on every exit path
  that runs, so a line found by the next taker was left by a process killed while it held the
  lock (its pid gone, or now another process's, started at another time): the taker says so (a
  WARN) and goes on. A writer waits at most `WAIT` seconds, then is refused naming the holder.
- `plan-claims/<ID>.json`: the worktree that started issue `<ID>` (path, branch, since), by
  `plan start` or by `start --issue`. It holds while that worktree is one of the clone's
  (`git worktree list`) and its copy of the issue carries `started_at`, or its task (as its
  `current.yaml` says) is active on `<ID>`; `plan done` there removes it; `--take-over` takes it.

With a remote, the remote claim is taken after the local one, under this lock: the local claim
settles the worktrees of one clone, the remote's compare-and-swap settles the clones.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time

from mj_core import clock
from mj_core.errors import Refused
from mj_core.git import questions as git

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

WAIT = 60.0  # seconds a writer waits for another worktree's writer
DIRECTORY = "majordomus"


def _start_time(pid: int) -> str:
    """The process's start time (clock ticks since boot, /proc), or "" where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return fields[19].decode("ascii")
    except (OSError, IndexError, UnicodeDecodeError):
        return ""


def alive(holder: dict[str, Any]) -> bool:
    """The process a holder line names still runs (the same pid, started at the same time)."""
    pid = holder.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return _start_time(pid) == str(holder.get("started", ""))


class CloneLock:
    """`with CloneLock(root) as lock:` the clone's plan lock; `lock.stale` the holder line a
    killed process left (None when the last holder released it)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.common = git.common_dir(root)
        self.home = self.common / DIRECTORY
        self.stale: dict[str, Any] | None = None
        self._fd = -1

    def __enter__(self) -> CloneLock:
        for directory in (self.home, self.home / "plan-claims"):
            os.makedirs(directory, mode=0o700, exist_ok=True)
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
        self._fd = os.open(self.home / "plan.lock", flags, 0o600)
        try:
            self._take()
            left = os.pread(self._fd, 4096, 0)
            self.stale = _holder(left) if left.strip() else None
            mine = {"pid": os.getpid(), "started": _start_time(os.getpid()),
                    "worktree": str(self.root), "since": clock.iso(clock.now())}  # fmt: skip
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, json.dumps(mine).encode() + b"\n", 0)
        except BaseException:
            os.close(self._fd)
            raise
        return self

    def _take(self) -> None:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    holder = _holder(os.pread(self._fd, 4096, 0))
                    raise Refused(
                        f"{self.home / 'plan.lock'}: held for over {WAIT:g}s by pid "
                        f"{holder.get('pid')} (worktree {holder.get('worktree')}, since "
                        f"{holder.get('since')}); nothing was written"
                    ) from None
                time.sleep(0.005)

    def __exit__(self, *exc: object) -> None:
        try:
            os.ftruncate(self._fd, 0)  # released: no holder line left behind
        finally:
            os.close(self._fd)  # closing releases the lock

    def claim_path(self, ident: str) -> Path:
        return self.home / "plan-claims" / f"{ident}.json"

    def holder(self, ident: str, issue_path: str) -> dict[str, Any] | None:
        """The claim of another worktree of this clone that still holds `ident`, or None."""
        try:
            claim = _holder(self.claim_path(ident).read_bytes())
        except FileNotFoundError:
            return None
        where = str(claim.get("worktree", ""))
        if not where or os.path.realpath(where) == os.path.realpath(self.root):
            return None
        listed = {os.path.realpath(w.get("worktree", "")) for w in git.worktrees(self.root)}
        if os.path.realpath(where) not in listed:
            return None  # that worktree is gone: the claim went with it
        held = _started_there(where, issue_path) or _task_there(where, ident)
        return claim if held else None

    def claim(self, ident: str, branch: str | None, took: dict[str, Any] | None) -> None:
        since = clock.iso(clock.now())
        doc: dict[str, Any] = {"issue": ident, "worktree": str(self.root),
                               "branch": branch or "DETACHED", "since": since}  # fmt: skip
        if took is not None:
            doc["took_over"] = took
        _publish(self.claim_path(ident), json.dumps(doc).encode() + b"\n")

    def release(self, ident: str) -> None:
        """`plan done`: this worktree's claim of `ident` removed (another's is left alone)."""
        path = self.claim_path(ident)
        try:
            claim = _holder(path.read_bytes())
        except FileNotFoundError:
            return
        if os.path.realpath(str(claim.get("worktree", ""))) == os.path.realpath(self.root):
            path.unlink(missing_ok=True)


def _publish(path: Path, data: bytes) -> None:
    """`data` at `path` in one rename (git's directory is not the tool's confined tree, so the
    write is its own: a fresh temporary file beside it, synced, renamed over)."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(temp, flags, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.replace(temp, path)
    except OSError:
        temp.unlink(missing_ok=True)
        raise


def _holder(data: bytes) -> dict[str, Any]:
    try:
        found = json.loads(data.decode("utf-8"))
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _started_there(worktree: str, issue_path: str) -> bool:
    """That worktree's copy of the issue carries `started_at` (and no `completed_at`)."""
    try:
        with open(os.path.join(worktree, issue_path), "rb") as handle:
            text = handle.read(1 << 20)
    except OSError:
        return False
    lines = text.splitlines()
    return any(line.startswith(b"started_at:") for line in lines) and not any(
        line.startswith(b"completed_at:") for line in lines
    )


def _task_there(worktree: str, ident: str) -> bool:
    """That worktree's task is active on issue `ident` (`start --issue`), as its copy says."""
    try:
        with open(os.path.join(worktree, ".ai/local/state/current.yaml"), "rb") as handle:
            lines = handle.read(1 << 20).splitlines()
    except OSError:
        return False
    issue = ident.encode()
    said = {line.split(b":", 1)[0]: line.split(b":", 1)[1].strip().strip(b"\"'")
            for line in lines if b":" in line and not line.startswith((b" ", b"#"))}  # fmt: skip
    return said.get(b"issue") == issue and said.get(b"outcome") == b"active"


@contextlib.contextmanager
def issue_claim(root: Path, ident: str, issue_path: str, take_over: bool) -> Iterator[None]:
    """`start --issue`: the issue's claim among this clone's worktrees, held (the lock) while
    the task is started; another worktree's claim that holds → 15 naming it, unless
    `take_over`. Taken before the task's line: a crash between the two leaves a claim whose
    worktree has no active task on the issue, which holds nothing."""
    with CloneLock(root) as shared:
        held = shared.holder(ident, issue_path)
        if held is not None and not take_over:
            raise Refused(
                f"start --issue {ident}: held by the worktree {held.get('worktree')} of this "
                f"clone (branch {held.get('branch')}, since {held.get('since')}) — finish it "
                "there, or take it with --take-over"
            )
        shared.claim(ident, git.branch(root), held)
        yield
