"""Where a checkout stands, from git: the common directory, HEAD and its branch (`where`), and
`Snapshot`, which asks that with the working tree's status and the files changed since a base
in one round of processes while the caller goes on working.
"""

from __future__ import annotations

from pathlib import Path

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    pass

WHERE_ARGS = (
    "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "HEAD",
    "--symbolic-full-name", "HEAD",
)  # fmt: skip


def where(root: Path) -> tuple[Path, str | None, str | None]:
    """(common dir, HEAD's SHA, branch); None for an unborn HEAD or no branch. Read from git's
    files in the plain layout (`mj_core.git.head`), else in one git call."""
    from mj_core.git import head as githead

    found = githead.read(str(root))
    if found is not None:  # git's own module is not even imported
        return Path(found[1]), found[2], found[3]
    from mj_core.git import questions as git

    code, stdout, _ = git.run(*WHERE_ARGS, cwd=root)
    return parse_where(root, code, stdout)


def where_dirty(
    root: Path, status: tuple[str, ...] | None = None
) -> tuple[tuple[Path, str | None, str | None], bool]:
    """(`where`, `is_dirty`) from two git processes run at once. `status` is the status
    question asked (`git.DIRTY_ARGS` when None; `git.STATUS_ARGS`, which lists each untracked
    file, is the one a briefing's facts ask, so a run that asks both can ask git once)."""
    from mj_core.git import questions as git

    (code, stdout, _), (dirty_code, dirty_out, _) = git.run_many(
        [(WHERE_ARGS, root), (git.DIRTY_ARGS if status is None else status, root)]
    )
    return parse_where(root, code, stdout), dirty_code == 0 and bool(dirty_out)


def snapshot(
    root: Path, base: str | None
) -> tuple[tuple[Path, str | None, str | None], list[str], list[str]]:
    """(`where`, `status_paths`, `changed_since(base)`) from git processes run at once.

    With no `base` the third is empty and not asked. A dirty working tree is a non-empty second.
    """
    with Snapshot(root, base) as pending:
        return pending.result()


class Snapshot:
    """`snapshot` begun: git answers while the caller works; `result` waits for it. A
    question begun `git.ahead` is answered from that process.

    Leaving the `with` block reaps the processes even when `result` was never asked.
    """

    __slots__ = ("_base", "_root", "_running")

    def __init__(self, root: Path, base: str | None) -> None:
        from mj_core.git import questions as git

        self._root = root
        self._base = base
        calls: list[tuple[tuple[str, ...], Path | str]] = [
            (WHERE_ARGS, root),
            (git.STATUS_ARGS, root),
        ]
        if base:
            calls.append((("diff", *git.NO_DRIVERS, "--name-only", "-z", f"{base}..HEAD"), root))
        self._running = git.begin(calls)

    def result(self) -> tuple[tuple[Path, str | None, str | None], list[str], list[str]]:
        from mj_core.git import questions as git

        results = self._running.wait()
        here = parse_where(self._root, results[0][0], results[0][1])
        status = git.parse_status(results[1][1]) if results[1][0] == 0 else []
        changed = git.zsplit(results[2][1]) if self._base and results[2][0] == 0 else []
        return here, status, changed

    def __enter__(self) -> Snapshot:
        return self

    def __exit__(self, *exc: object) -> None:
        self._running.reap()


def parse_where(root: Path, code: int, stdout: str) -> tuple[Path, str | None, str | None]:
    """`where` from the result of `git <WHERE_ARGS>` (asked alone or among `run_many`)."""
    from mj_core.git import questions as git

    lines = stdout.split("\n")
    if code != 0 and len(lines) >= 3 and all(line.startswith("/") for line in lines[:2]):
        # The directories were printed before HEAD failed to resolve (an unborn branch, or a
        # HEAD naming no commit): `git.head` could give no SHA either, so only the branch is
        # asked (one process where two were).
        git.remember_dirs(root, lines[0], lines[1])
        return Path(lines[1]), None, git.branch(root)
    if code != 0 or len(lines) < 4:
        return git.common_dir(root), git.head(root), git.branch(root)
    git.remember_dirs(root, lines[0], lines[1])  # asked here, never again
    name = lines[3]
    return Path(lines[1]), lines[2], name.removeprefix("refs/heads/") if name != "HEAD" else None
