"""What `finish --check` judges: the commits a push sends, read from git's pre-push lines on
standard input, or — run by hand — the task's commits up to HEAD. Never the working tree: what
is not committed is not pushed (`check` is the person's view of it).

git runs the pre-push hook with one `<local ref> <local sha> <remote ref> <remote sha>` line a
ref on its standard input (githooks(5)), and the hook line `majordomus finish --check` inherits
it. Standard input is read only when it is a pipe or a file; a pipe gets `WAIT` seconds to
bring its first bytes (git writes them as the hook starts) and `DEADLINE` to end. A terminal,
`/dev/null`, an empty input or nothing within the wait is a run by hand; a line of any other
shape is a usage error (2): what is judged is never guessed.

For each ref pushed (a deletion sends no commit), the commits judged are those the pushed
commit reaches and neither the task's head nor the remote's commit does (`git log <local>
--not <head> <remote>`; the remote's only when git has it): the files each changes, a merge's
against its first parent, both sides of a rename. Each file is judged as the pushed commit
holds it (`mj_state.task.own_writes`).
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import UsageError
from mj_core.git import questions as git

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    Push = tuple[str, str, str, str]  # local ref, local sha, remote ref, remote sha

WAIT = 1.0  # seconds a pipe may take to bring its first bytes
DEADLINE = 5.0  # seconds it may take to end
CAP = 1024 * 1024  # bytes of pre-push lines read at most
_LINE = r"(\S+) ([0-9a-f]{40}|[0-9a-f]{64}) (\S+) ([0-9a-f]{40}|[0-9a-f]{64})"


def from_stdin(fd: int = 0) -> list[Push] | None:
    """git's pre-push lines on `fd`; None when it carries none (a run by hand)."""
    import os
    import stat

    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return None
    if not (stat.S_ISFIFO(mode) or stat.S_ISREG(mode)):
        return None
    data = _drain(fd) if stat.S_ISFIFO(mode) else os.read(fd, CAP + 1)
    if data is None or not data.strip():
        return None
    return parse(data)


def _drain(fd: int) -> bytes | None:
    """A pipe's bytes up to its end; None when none came within `WAIT`."""
    import os
    import select
    import time

    began = time.monotonic()
    chunks: list[bytes] = []
    size = 0
    while True:
        left = (WAIT if not chunks else DEADLINE) - (time.monotonic() - began)
        ready, _, _ = select.select([fd], [], [], max(left, 0))
        if not ready:
            if not chunks:
                return None
            raise UsageError(f"finish --check: standard input did not end within {DEADLINE:.0f} s")
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > CAP:
            raise UsageError("finish --check: standard input is longer than git's pre-push lines")


def parse(data: bytes) -> list[Push]:
    import re

    out: list[Push] = []
    for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        if not line.strip():
            continue
        match = re.fullmatch(_LINE, line)
        if match is None:
            raise UsageError(
                f"finish --check: <stdin>:{number}: not a pre-push line "
                "(<local ref> <local sha> <remote ref> <remote sha>, githooks(5))"
            )
        out.append((match[1], match[2], match[3], match[4]))
    return out


def by_hand(head: str = "HEAD") -> list[Push]:
    """A run by hand: what a push of HEAD sends, as far as the task goes."""
    return [("HEAD", head, "", "0" * 40)]


def judged(root: Path, base: str, pushes: list[Push]) -> list[tuple[str, list[str]]]:
    """(pushed commit, the files the commits it sends change) for each ref that sends any."""
    sent = [(local, remote) for _, local, _, remote in pushes if local.strip("0")]
    if not sent:
        return []
    remotes = list(dict.fromkeys(remote for _, remote in sent if remote.strip("0")))
    asked: list[tuple[tuple[str, ...], Path | str]] = [
        (("cat-file", "-e", f"{remote}^{{commit}}"), root) for remote in remotes
    ]
    known = {r for r, (code, _, _) in zip(remotes, git.run_many(asked), strict=True) if code == 0}
    logs = git.run_many(
        [
            (("log", "--format=", "--name-only", "-z", "--no-renames", *git.NO_DRIVERS,
              "--diff-merges=first-parent", local, "--not", base,
              *([remote] if remote in known else [])), root)
            for local, remote in sent
        ]
    )  # fmt: skip
    out = []
    for (local, _), (code, stdout, err) in zip(sent, logs, strict=True):
        if code != 0:
            raise ContractUnmet(
                f"finish --check: git cannot list the commits {local[:7]} sends past the "
                f"task's head {base[:7]} ({err.strip()[:200]}); nothing can be judged"
            )
        names = stdout.split("\0")  # with an empty format, names alone, each NUL-ended
        out.append((local, list(dict.fromkeys(name for name in names if name))))
    return out
