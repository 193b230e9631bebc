"""The module that spawns git (`gitstdin` too, for the questions git reads on stdin): one
runner, NUL-separated output, `GIT_*` scrubbed.

Inside a git hook, git exports `GIT_DIR`, `GIT_INDEX_FILE` and friends; a tool that inherits
them would answer for the wrong repository, so the runner removes them (keeping the few that
configure identity and behaviour, not location).

Every command the tool runs only reads, and none may start a program the repository's
configuration names: `core.fsmonitor` is switched off (status, diff and ls-files would run it),
signatures are not verified (`log.showSignature` runs `gpg.program`), there is no pager, and
the diffs the tool asks for are name lists, which run no external diff or textconv driver
(`--no-ext-diff --no-textconv` say so anyway). `-c` settings reach the git processes git
itself starts (submodules) through `GIT_CONFIG_PARAMETERS`. Every git process has the
`spawn.TIMEOUT` deadline. (Clean filters named in `.gitattributes` and defined in the
repository's configuration can still run under `git status` on a racily clean file: git
before 2.40 has no switch that turns attributes off.)
"""

from __future__ import annotations

import os

from mj_core import spawn
from mj_core import timing
from mj_core.errors import UsageError

TYPE_CHECKING = False  # pathlib only where a Path is made: `plan ready` asks git before it
if TYPE_CHECKING:
    from pathlib import Path

_KEEP = {
    "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
    "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
    "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_SYSTEM",
    "GIT_TEMPLATE_DIR", "GIT_EXEC_PATH",
    "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "GIT_TERMINAL_PROMPT",
}  # fmt: skip


SAFE = ("--no-pager", "-c", "core.fsmonitor=false", "-c", "log.showSignature=false")
NO_DRIVERS = ("--no-ext-diff", "--no-textconv")


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in _KEEP}
    env["GIT_OPTIONAL_LOCKS"] = "0"  # read-only commands must not take the index lock
    env.setdefault("LC_ALL", "C")
    return env


def run(*args: str, cwd: Path | str) -> tuple[int, str, str]:
    """Run `git <args>` in `cwd`; (exit code, stdout, stderr). Never raises on a git failure.

    A question `ahead` began is answered from that process instead, once."""
    return run_many([(args, cwd)])[0]


_AHEAD: dict[tuple[str, tuple[str, ...]], spawn.Running] = {}
_ANSWERS: dict[tuple[str, tuple[str, ...]], tuple[int, str, str]] = {}


def ahead(calls: list[tuple[tuple[str, ...], Path | str]]) -> None:
    """Begin several questions at once that `run` will be asked later, one by one: a reader
    that knows its questions (doctor's facts) waits for one round of git, not for each. Each
    answer is given once; asked again, git is asked again. Only for reads: a write in between
    would leave the answer stale."""
    keys = list(dict.fromkeys((os.fspath(cwd), tuple(args)) for args, cwd in calls))
    running = start_many([(args, cwd) for cwd, args in keys])
    for key in keys:
        _AHEAD[key] = running


def settle() -> None:
    """Wait for every question begun `ahead` and forget the answers nobody asked for."""
    for running in {id(r): r for r in _AHEAD.values()}.values():
        running.wait()
    _AHEAD.clear()
    _ANSWERS.clear()


def _answer(key: tuple[str, tuple[str, ...]]) -> tuple[int, str, str] | None:
    if key in _ANSWERS:
        return _ANSWERS.pop(key)
    running = _AHEAD.get(key)
    if running is None:
        return None
    keys = [k for k, r in _AHEAD.items() if r is running]
    for each, result in zip(keys, decoded(running.wait()), strict=True):
        del _AHEAD[each]
        _ANSWERS[each] = result
    return _ANSWERS.pop(key)


def run_many(calls: list[tuple[tuple[str, ...], Path | str]]) -> list[tuple[int, str, str]]:
    """Run several `git <args>` at once (each in its own cwd); results in call order.

    For independent questions to several worktrees: the processes overlap instead of queueing.
    A missing `cwd` is a git failure (128), like any other.
    """
    if not (_AHEAD or _ANSWERS):
        return decoded(start_many(calls).wait())
    answers = [_answer((os.fspath(cwd), tuple(args))) for args, cwd in calls]
    missing = [index for index, answer in enumerate(answers) if answer is None]
    if missing:  # asked now, together
        asked = decoded(start_many([calls[i] for i in missing]).wait())
        for index, answer in zip(missing, asked, strict=True):
            answers[index] = answer
    return [answer for answer in answers if answer is not None]


def start_many(calls: list[tuple[tuple[str, ...], Path | str]]) -> spawn.Running:
    """`run_many` without the wait: the caller works while git answers, then `decoded(.wait())`."""
    for _ in calls:
        timing.count("git")
    argv = [("git", *SAFE, "-C", str(cwd), *args) for args, cwd in calls]
    return spawn.start_all(argv, clean_env())


def decoded(done: list[spawn.Result]) -> list[tuple[int, str, str]]:
    """(exit code, stdout, stderr) as text, undecodable bytes kept as surrogates."""
    return [
        (code, stdout.decode("utf-8", "surrogateescape"), stderr.decode("utf-8", "surrogateescape"))
        for code, stdout, stderr in done
    ]


def run_with_index(index: Path, *args: str, cwd: Path | str) -> tuple[int, str, str]:
    """`run` against a private index file (`GIT_INDEX_FILE`), never the user's index."""
    env = {**clean_env(), "GIT_INDEX_FILE": str(index)}
    timing.count("git")
    done = spawn.start_all([("git", "-C", str(cwd), *args)], env).wait()
    return decoded(done)[0]


def out(*args: str, cwd: Path | str) -> str | None:
    """Stdout without the trailing newline, or None when git failed."""
    code, stdout, _ = run(*args, cwd=cwd)
    return stdout.rstrip("\n") if code == 0 else None


def zsplit(text: str) -> list[str]:
    return [part for part in text.split("\0") if part]


def toplevel(cwd: Path | str) -> Path:
    """The worktree root containing `cwd` (read from git's plain layout when it is one,
    `gitlayout`); not inside a repository → usage error (2)."""
    from mj_core import gitlayout

    found = gitlayout.toplevel(os.fspath(cwd)) or out("rev-parse", "--show-toplevel", cwd=cwd)
    if not found:
        raise UsageError(f"not inside a git repository: {cwd}")
    from pathlib import Path

    return Path(found)


_DIRS: dict[str, tuple[str, str]] = {}


def dirs(root: Path | str) -> tuple[str, str] | None:
    """(git directory, common directory) of the checkout at `root` as absolute paths: read from
    git's plain layout when it is one (`gitlayout`), else asked of git, once per process (an
    answer is kept; none is asked again); None outside a repository."""
    key = os.fspath(root)
    if key not in _DIRS:
        from mj_core import gitlayout

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
