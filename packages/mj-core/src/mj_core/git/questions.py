"""The questions the tool asks git, each answered from the runner (`git.run`, which says how git
is run and why it is safe to): NUL-separated output, the git directories asked once per process.
"""

from __future__ import annotations

import os

from mj_core import spawn
from mj_core import timing
from mj_core.errors import UsageError
from mj_core.git.run import NO_DRIVERS
from mj_core.git.run import SAFE
from mj_core.git.run import ahead
from mj_core.git.run import begin
from mj_core.git.run import clean_env
from mj_core.git.run import decoded
from mj_core.git.run import run_bounded
from mj_core.git.run import run_many
from mj_core.git.run import settle
from mj_core.git.run import start_many

TYPE_CHECKING = False  # pathlib only where a Path is made: `plan ready` asks git before it
if TYPE_CHECKING:
    from pathlib import Path

__all__ = [  # the runner's, named here for git's callers
    "NO_DRIVERS",
    "SAFE",
    "ahead",
    "begin",
    "clean_env",
    "decoded",
    "run_bounded",
    "run_many",
    "settle",
    "start_many",
]


def run(*args: str, cwd: Path | str) -> tuple[int, str, str]:
    """Run `git <args>` in `cwd`; (exit code, stdout, stderr). Never raises on a git failure.

    A question `ahead` began is answered from that process instead (`git.run.ahead`)."""
    return run_many([(args, cwd)])[0]


def run_with_index(index: Path, *args: str, cwd: Path | str) -> tuple[int, str, str]:
    """`run` against a private index file (`GIT_INDEX_FILE`), never the user's index."""
    env = {**clean_env(), "GIT_INDEX_FILE": str(index)}
    timing.count("git")
    done = spawn.start_all([("git", *SAFE, "-C", str(cwd), *args)], env).wait()
    return decoded(done)[0]


def out(*args: str, cwd: Path | str) -> str | None:
    """Stdout without the trailing newline, or None when git failed."""
    code, stdout, _ = run(*args, cwd=cwd)
    return stdout.rstrip("\n") if code == 0 else None


def zsplit(text: str) -> list[str]:
    return [part for part in text.split("\0") if part]


def toplevel(cwd: Path | str) -> Path:
    """The worktree root containing `cwd` (read from git's plain layout when it is one,
    `git.layout`); not inside a repository → usage error (2)."""
    from mj_core.git import layout as gitlayout

    found = gitlayout.toplevel(os.fspath(cwd)) or out("rev-parse", "--show-toplevel", cwd=cwd)
    if not found:
        raise UsageError(f"not inside a git repository: {cwd}")
    from pathlib import Path

    return Path(found)


_DIRS: dict[str, tuple[str, str]] = {}


def dirs(root: Path | str) -> tuple[str, str] | None:
    """(git directory, common directory) of the checkout at `root` as absolute paths: read from
    git's plain layout when it is one (`git.layout`), else asked of git, once per process (an
    answer is kept; none is asked again); None outside a repository."""
    key = os.fspath(root)
    if key not in _DIRS:
        from mj_core.git import layout as gitlayout

        plain = gitlayout.dirs(key)
        if plain is not None:
            _DIRS[key] = plain
            return plain
        found = out("rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", cwd=key)
        lines = (found or "").splitlines()
        if len(lines) != 2:
            return None
        _DIRS[key] = (lines[0], lines[1])
    return _DIRS[key]


def remember_dirs(root: Path | str, git_dir: str, common: str) -> None:
    """Keep what another question told of `dirs`, so that it is not asked again."""
    _DIRS.setdefault(os.fspath(root), (git_dir, common))


def common_dir(root: Path) -> Path:
    found = dirs(root)
    return root.joinpath(found[1]) if found else root / ".git"  # absolute: it replaces root


def git_dir(root: Path) -> Path:
    found = dirs(root)
    return root.joinpath(found[0]) if found else root / ".git"  # absolute: it replaces root


def head(root: Path) -> str | None:
    """The full SHA of HEAD, or None on an unborn branch."""
    return out("rev-parse", "--verify", "-q", "HEAD", cwd=root)


def branch(root: Path) -> str | None:
    """The current branch name, or None when HEAD is detached."""
    return out("symbolic-ref", "--short", "-q", "HEAD", cwd=root)


STATUS_ARGS = ("status", "--porcelain=v1", "-z", "--untracked-files=all")


def status_paths(root: Path) -> list[str]:
    """Paths porcelain status reports (staged, unstaged, untracked), renames both sides."""
    code, stdout, _ = run(*STATUS_ARGS, cwd=root)
    return parse_status(stdout) if code == 0 else []


def parse_status(stdout: str) -> list[str]:
    """The paths of `git status --porcelain=v1 -z` output (`STATUS_ARGS`)."""
    paths: list[str] = []
    parts = stdout.split("\0")
    index = 0
    while index < len(parts):
        entry = parts[index]
        index += 1
        if len(entry) < 4:
            continue
        paths.append(entry[3:])
        if entry[0] in "RC":
            if index < len(parts) and parts[index]:
                paths.append(parts[index])
            index += 1
    return paths


DIRTY_ARGS = ("status", "--porcelain=v1", "-z", "--untracked-files=normal")


def is_dirty(root: Path) -> bool:
    code, stdout, _ = run(*DIRTY_ARGS, cwd=root)
    return code == 0 and bool(stdout)


def is_ancestor(root: Path, older: str, newer: str) -> bool:
    code, _, _ = run("merge-base", "--is-ancestor", older, newer, cwd=root)
    return code == 0


def changed_since(root: Path, base: str) -> list[str]:
    """Files changed in commits `base..HEAD` (names only)."""
    code, stdout, _ = run("diff", *NO_DRIVERS, "--name-only", "-z", f"{base}..HEAD", cwd=root)
    return zsplit(stdout) if code == 0 else []


def config_get(root: Path, key: str) -> str | None:
    return out("config", "--get", key, cwd=root)


def worktrees(root: Path) -> list[dict[str, str]]:
    """`git worktree list --porcelain` as dicts: worktree, head, branch (refs/heads/ stripped)."""
    code, stdout, _ = run("worktree", "list", "--porcelain", "-z", cwd=root)
    if code != 0:
        return []
    items: list[dict[str, str]] = []
    current: dict[str, str] = {}
    for field in stdout.split("\0"):
        if not field:
            if current:
                items.append(current)
                current = {}
            continue
        key, _, value = field.partition(" ")
        if key == "branch":
            value = value.removeprefix("refs/heads/")
        current[key] = value or "true"
    if current:
        items.append(current)
    return items


def ls_files_args(*pathspecs: str) -> tuple[str, ...]:
    return ("ls-files", "-z", "--", *pathspecs)


def ls_files(root: Path, *pathspecs: str) -> list[str]:
    code, stdout, _ = run(*ls_files_args(*pathspecs), cwd=root)
    return zsplit(stdout) if code == 0 else []


def ignored_args(path: str) -> tuple[str, ...]:
    return ("check-ignore", "-q", "--no-index", path)


def check_ignored(root: Path, path: str) -> bool:
    code, _, _ = run(*ignored_args(path), cwd=root)
    return code == 0
