"""The state directory is this checkout's: removed, or carried over from another clone, it fails.

Scripted as a worker would: start a task, make a change outside its scope, then hide the task
by `rm -rf .ai/local`, or by copying in the `.ai/local` of another clone whose task finished.
`finish --check` (the pre-push gate) and doctor fail with one line naming it and the command
that shows it. State carried into a clone that never started a task is that clone's at its
next start (a moved checkout keeps its task). Removing git's binding as well leaves nothing
here to see: `verify`'s to catch.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import Repo
from conftest import failures
from conftest import make_env


def clone(repo: Repo, where: Path) -> Repo:
    env = make_env(where.parent / "home")
    repo.git("clone", "-q", str(repo.root), str(where))
    return Repo(where, env)


def out_of_scope(repo: Repo) -> None:
    assert repo.mj("start", "fix the parser", "--scope", "lib").code == 0
    repo.write("src/elsewhere.py", "print('not in scope')\n")
    repo.commit("out of scope")
    assert repo.mj("finish", "--check").code == 10  # the task sees it


def identity_failures(repo: Repo, *args: str) -> list[tuple[str, str, str, str]]:
    return [f for f in failures(repo.mj(*args).out) if f[0] == "identity"]


def test_removed_state_fails_finish_check_and_doctor(layer_repo: Repo) -> None:
    out_of_scope(layer_repo)
    shutil.rmtree(layer_repo.root / ".ai/local")
    gate = layer_repo.mj("finish", "--check")
    assert gate.code == 10, gate
    (fail,) = identity_failures(layer_repo, "finish", "--check")
    assert "this checkout's state is gone" in fail[2] and "c-" in fail[2]
    assert layer_repo.shell(fail[3]).code == 0  # the command shows the binding
    assert identity_failures(layer_repo, "doctor")[0][2] == fail[2]
    refused = layer_repo.mj("start", "a fresh start", "--scope", "src")
    assert refused.code == 15 and "state is gone" in refused.err, refused


def test_state_copied_from_another_clone_fails(layer_repo: Repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    other = clone(layer_repo, tmp_path / "other")
    assert other.mj("start", "done elsewhere", "--scope", "lib").code == 0
    other.write("lib/a.py", "x = 1\n")
    other.commit("in scope")
    assert other.mj("finish", "--outcome", "partial", "--note", "-", stdin=NOTE).code == 0
    out_of_scope(layer_repo)
    shutil.rmtree(layer_repo.root / ".ai/local")
    shutil.copytree(other.root / ".ai/local", layer_repo.root / ".ai/local")
    assert layer_repo.mj("finish", "--check").code == 10
    (fail,) = identity_failures(layer_repo, "finish", "--check")
    assert "came from another clone" in fail[2], fail
    assert identity_failures(layer_repo, "doctor") == [fail]


def test_state_carried_into_a_fresh_clone_is_bound_at_its_next_start(
    layer_repo: Repo, tmp_path: Path
) -> None:
    assert layer_repo.mj("start", "here", "--scope", "lib").code == 0
    fresh = clone(layer_repo, tmp_path / "fresh")
    shutil.copytree(layer_repo.root / ".ai/local", fresh.root / ".ai/local")
    assert identity_failures(fresh, "doctor") == []  # nothing of this clone's can hide behind it
    assert "not yet bound" in fresh.mj("doctor").out
    assert fresh.git("config", "--get-regexp", "^majordomus", check=False) == ""
    assert fresh.mj("start", "again", "--scope", "lib").code == 15  # its task is still active


def test_own_state_and_a_fresh_checkout_pass(layer_repo: Repo) -> None:
    assert identity_failures(layer_repo, "doctor") == []
    assert layer_repo.mj("start", "fine", "--scope", "lib").code == 0
    assert identity_failures(layer_repo, "doctor") == []
    assert identity_failures(layer_repo, "finish", "--check") == []
    bound = layer_repo.git("config", "--get-regexp", "^majordomus")
    assert bound.startswith("majordomus...clone c-"), bound


def test_a_linked_worktree_has_its_own_binding(layer_repo: Repo) -> None:
    assert layer_repo.mj("start", "main's", "--scope", "lib").code == 0
    layer_repo.git("worktree", "add", "-q", "-b", "side", str(layer_repo.root.parent / "side"))
    side = Repo(layer_repo.root.parent / "side", layer_repo.env)
    assert side.mj("start", "side's", "--scope", "src").code == 0
    assert identity_failures(side, "doctor") == []
    shutil.rmtree(side.root / ".ai/local")
    shutil.copytree(layer_repo.root / ".ai/local", side.root / ".ai/local")
    assert "came from another clone" in identity_failures(side, "doctor")[0][2]
    assert identity_failures(layer_repo, "doctor") == []


NOTE = """# Next Action
Make the error message for an unterminated list name the line where the list began.
"""
