"""Where a target runs: the current repository, or a generated fixture, and copies of either.

A scenario owns one scratch directory for its whole run: the generated fixture (if any), the
private copies read-only targets with a setup use, and the fresh copy a mutating target gets
for every run. Everything under it is removed when the scenario closes.
"""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
import time
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import AbstractContextManager
from contextlib import contextmanager
from contextlib import nullcontext
from pathlib import Path

from mj_core.errors import InternalError
from mj_core.git import questions as git

Setup = Callable[[Path], None]
IDENTITY = ("-c", "user.name=mj-bench", "-c", "user.email=mj-bench@example.invalid")

GIT_ENV = {
    "GIT_AUTHOR_NAME": "mj-bench",
    "GIT_AUTHOR_EMAIL": "mj-bench@example.invalid",
    "GIT_COMMITTER_NAME": "mj-bench",
    "GIT_COMMITTER_EMAIL": "mj-bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


class Scenario:
    def __init__(
        self,
        name: str,
        root: Path,
        scratch: Path,
        env: dict[str, str],
        linked: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self.root = root
        self.scratch = scratch
        self.env = env
        self.linked = linked  # directories whose files are never changed in place: hard-linked
        self._private: dict[str, Path] = {}
        self._copies = 0

    def copy(self) -> Path:
        """A new copy of the repository (git directory and ignored files included).

        The copy's index is refreshed before any run: its files have new inodes, and git would
        otherwise re-read every tracked file inside the first measured command.
        """
        self._copies += 1
        target = self.scratch / f"copy-{self._copies}" / self.root.name
        shutil.copytree(self.root, target, symlinks=True, copy_function=self._copier(target))
        refresh(target)
        return target

    def _copier(self, target: Path) -> Callable[[str, str], object]:
        if not self.linked:
            return shutil.copy2
        shared = tuple(str(target / directory) + os.sep for directory in self.linked)

        def link_or_copy(source: str, destination: str) -> object:
            if destination.startswith(shared):
                os.link(source, destination)
                return destination
            return shutil.copy2(source, destination)

        return link_or_copy

    @contextmanager
    def fresh(self, setup: Setup) -> Iterator[Path]:
        """A fresh copy with `setup` applied, removed after the run it serves."""
        target = self.copy()
        try:
            setup(target)
            yield target
        finally:
            shutil.rmtree(target.parent, ignore_errors=True)

    @contextmanager
    def empty(self, setup: Setup) -> Iterator[Path]:
        """A new repository with one commit and no layer, removed after the run it serves."""
        self._copies += 1
        target = self.scratch / f"empty-{self._copies}" / "repo"
        try:
            blank(target)
            setup(target)
            yield target
        finally:
            shutil.rmtree(target.parent, ignore_errors=True)

    def shared(self, key: str, setup: Setup | None) -> AbstractContextManager[Path]:
        """The repository itself, or (with a setup) one private copy kept for every run of `key`."""
        if not setup:
            return nullcontext(self.root)
        if key not in self._private:
            target = self.copy()
            setup(target)
            self._private[key] = target
        return nullcontext(self._private[key])

    def close(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)


def blank(root: Path) -> None:
    """`git init` and one commit (a README, a finish note): a repository before `init`."""
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    (root / "README.md").write_text("# fixture\n\nSee AGENTS.md.\n", encoding="utf-8")
    note = root / "docs" / "finish-note.md"  # what `finish --note` is measured with
    note.parent.mkdir()
    note.write_text("# Next Action\nMeasure again.\n", encoding="utf-8")
    commit(root, "initial")


def refresh(root: Path) -> None:
    """`git update-index --refresh` in `root`: what any plain `git status` there would do.

    Commands run with optional locks off and never write the index; an index whose entries
    are stale (new inodes in a copy, files written in the second the index was) makes every
    status re-read those files.
    """
    code, _, err = git.run("update-index", "-q", "--refresh", cwd=root)
    if code not in (0, 1):  # 1: something is modified, which a copy may well be
        raise InternalError(f"bench: git update-index --refresh in {root}: {err.strip()}")


def settle(root: Path) -> None:
    """Refresh the index of `root` and of every linked worktree, a second after the last write.

    Git trusts an entry's stat data only when the file is older than the index by whole
    seconds; files written in the second the index was are re-read by every status until the
    index is written again. A user's repository is past that window; a generated one is not.
    """
    time.sleep(1.1)
    for item in git.worktrees(root):
        if "bare" not in item and "worktree" in item:
            refresh(Path(item["worktree"]))


def commit(root: Path, message: str) -> None:
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "--no-gpg-sign", "--no-verify", "-m", message)


def git_ok(root: Path, *args: str) -> None:
    """Run git in `root`; a failure stops the benchmark (13) naming the command."""
    _git(root, *args)


def _git(root: Path, *args: str) -> None:
    code, _, err = git.run(*IDENTITY, *args, cwd=root)
    if code != 0:
        raise InternalError(f"fixture: git {shlex.join(args)} exited {code}: {err.strip()}")


def repository(root: Path) -> Scenario:
    """The repository `bench` was started in, measured as it is."""
    scratch = Path(tempfile.mkdtemp(prefix="mj-bench-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("MJ_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return Scenario("repository", root, scratch, env)


def environment() -> dict[str, str]:
    """The environment fixture runs use: git isolated from the machine's configuration."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MJ_"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # warm runs use compiled modules, as installs do
    env.update(GIT_ENV)
    return env
