"""`git <args>` reading its questions on stdin (`cat-file --batch`, `check-attr --stdin`), with
the runner's settings and scrubbed environment (`mj_core.git.questions`). No start-up path asks git
this
way, so `subprocess` is imported here."""

from __future__ import annotations

from mj_core import spawn
from mj_core import timing
from mj_core.errors import ContractUnmet
from mj_core.git import questions as git

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path


def run(*args: str, data: bytes, cwd: Path | str) -> tuple[int, bytes, str]:
    """(exit code, stdout as bytes, stderr) of `git <args>` with `data` on its stdin."""
    import subprocess

    timing.count("git")
    argv = ["git", *git.SAFE, "-C", str(cwd), *args]
    try:
        done = subprocess.run(
            argv, input=data, capture_output=True, env=git.clean_env(), timeout=spawn.TIMEOUT,
            check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise ContractUnmet(f"git {args[0]}: no answer in {spawn.TIMEOUT:.0f} s") from None
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "surrogateescape")
