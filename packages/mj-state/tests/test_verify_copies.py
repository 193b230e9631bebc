"""`verify`'s throw-away copies: one directory made each commit in turn is exactly that commit's
tree, whatever the commands run in it before left there (files added, changed, removed, made
read-only, a directory where a file was), and the repository is never written."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from mj_state.verifyfacts import copies

ENV = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.invalid", "GIT_COMMITTER_NAME": "a",
       "GIT_COMMITTER_EMAIL": "a@example.invalid", "GIT_CONFIG_GLOBAL": os.devnull,
       "GIT_CONFIG_NOSYSTEM": "1", "PATH": os.environ["PATH"]}  # fmt: skip


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, env=ENV, capture_output=True, text=True,
                          check=True)  # fmt: skip
    return done.stdout.strip()


def tree_of(where: Path) -> dict[str, tuple[str, int]]:
    out = {}
    for dirpath, dirs, files in os.walk(where):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(dirpath, d))]:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, where)
            if os.path.islink(path):
                out[rel] = ("link:" + os.readlink(path), 0)
            else:
                out[rel] = (Path(path).read_text(), os.stat(path).st_mode & 0o777)
    return out


def test_each_commit_is_laid_out_exactly_whatever_was_left(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "lib").mkdir()
    (repo / "lib/a.txt").write_text("a1\n")
    (repo / "run.sh").write_text("#!/bin/sh\n")
    (repo / "run.sh").chmod(0o755)
    (repo / "x").write_text("a file\n")
    os.symlink("lib/a.txt", repo / "link")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    first = git(repo, "rev-parse", "HEAD")
    (repo / "x").unlink()
    (repo / "x").mkdir()
    (repo / "x/y.txt").write_text("y\n")
    (repo / "lib/a.txt").write_text("a2\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two")
    second = git(repo, "rev-parse", "HEAD")
    expected = {}
    for commit in (first, second):
        out = tmp_path / f"archive-{commit[:7]}"
        out.mkdir()
        git(repo, "worktree", "add", "-q", "--detach", str(out), commit)
        (out / ".git").unlink()  # a worktree's .git file: not the commit's
        expected[commit] = tree_of(out)
    before = git(repo, "for-each-ref") + git(repo, "status", "--porcelain")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    made = copies.Copies(repo, scratch)
    try:
        dest = made.lay_out(first)
        assert tree_of(dest) == expected[first]
        (dest / "lib/a.txt").write_text("changed by a command\n")  # same size, new content
        (dest / "lib/new.txt").write_text("left over\n")
        (dest / "build").mkdir()
        (dest / "build/out").write_text("artifact\n")
        (dest / "run.sh").chmod(0o444)
        dest = made.lay_out(second)
        assert tree_of(dest) == expected[second]
        os.unlink(dest / "link")
        dest = made.lay_out(first)
        assert tree_of(dest) == expected[first]
        dest = made.lay_out(first)  # nothing changed: nothing rewritten
        assert tree_of(dest) == expected[first]
    finally:
        made.close()
    assert git(repo, "for-each-ref") + git(repo, "status", "--porcelain") == before
