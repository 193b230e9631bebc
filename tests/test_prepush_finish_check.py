"""The pre-push hook line `majordomus finish --check || exit $?` gates `git push` on scope."""

from __future__ import annotations

import stat
from pathlib import Path

from conftest import Repo

HOOK = "#!/bin/sh\nmajordomus finish --check || exit $?\n"


def test_pre_push_blocks_while_scope_is_violated(layer_repo: Repo, tmp_path) -> None:
    remote = tmp_path / "remote.git"
    layer_repo.git("init", "-q", "--bare", str(remote))
    layer_repo.git("remote", "add", "origin", str(remote))
    hook = layer_repo.root / ".git" / "hooks" / "pre-push"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(HOOK)
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)

    layer_repo.git("push", "-q", "origin", "main")  # inert before the first start

    assert layer_repo.mj("start", "--json", "fix lib", "--scope", "lib").code == 0
    layer_repo.write("lib/a.py", "x = 1\n")
    layer_repo.commit("in scope")
    layer_repo.git("push", "-q", "origin", "main")
    pushed = layer_repo.git("rev-parse", "HEAD").strip()

    layer_repo.write("config/settings.ini", "x\n")
    layer_repo.commit("outside the claim")
    blocked = layer_repo.shell("git push origin main")
    assert blocked.code != 0, blocked
    assert "FAIL scope" in blocked.out + blocked.err and "config/settings.ini" in blocked.out
    remote_head = layer_repo.git("--git-dir", str(remote), "rev-parse", "main").strip()
    assert remote_head == pushed
    result = layer_repo.mj("finish", "--check")
    assert result.code == 10 and "config/settings.ini" in result.out, result


def _remote(repo: Repo, tmp_path) -> Path:
    remote = tmp_path / "remote.git"
    repo.git("init", "-q", "--bare", str(remote))
    repo.git("remote", "add", "origin", str(remote))
    hook = repo.root / ".git" / "hooks" / "pre-push"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(HOOK)
    hook.chmod(0o755)
    repo.git("push", "-q", "origin", "main")
    assert repo.mj("start", "--json", "fix lib", "--scope", "lib").code == 0
    return remote


def test_untracked_files_outside_the_scope_never_block_a_push(layer_repo: Repo, tmp_path) -> None:
    remote = _remote(layer_repo, tmp_path)
    layer_repo.write("lib/a.py", "x = 1\n")
    layer_repo.commit("in scope")
    layer_repo.write("notes/todo.txt", "a note of the person's, never committed\n")
    assert layer_repo.mj("mcp", "install", "--provider", "codex", "--write").code == 0
    pushed = layer_repo.shell("git push -q origin main")
    assert pushed.code == 0, pushed
    assert "FAIL" not in pushed.out
    assert layer_repo.git("--git-dir", str(remote), "rev-parse", "main") == layer_repo.git(
        "rev-parse", "HEAD"
    )
    check = layer_repo.mj("check")  # a person's status still shows the stray file
    assert check.code == 10 and "FAIL scope       notes/todo.txt" in check.out, check
    assert ".codex/config.toml" not in check.out  # the tool's own write


def test_the_gate_judges_each_commit_pushed_and_only_those(layer_repo: Repo, tmp_path) -> None:
    remote = _remote(layer_repo, tmp_path)
    layer_repo.write("lib/a.py", "x = 1\n")
    good = layer_repo.commit("in scope")
    layer_repo.write("config/secret.ini", "token = 1\n")
    layer_repo.commit("outside the claim")
    layer_repo.git("rm", "-q", "config/secret.ini")
    layer_repo.commit("and gone again, yet the history carries it")
    assert layer_repo.mj("check").code == 0  # the tree no longer shows it
    refused = layer_repo.shell("git push origin main")
    assert refused.code != 0 and "config/secret.ini" in refused.out, refused
    older = layer_repo.shell(f"git push -q origin {good}:refs/heads/main")
    assert older.code == 0, older  # the commit pushed is within the claim
    assert layer_repo.git("--git-dir", str(remote), "rev-parse", "main").strip() == good
    layer_repo.git("reset", "-q", "--hard", good)
    layer_repo.git("checkout", "-q", "-b", "side")
    layer_repo.write("deploy/prod.yaml", "replicas: 9\n")
    layer_repo.commit("outside, on another branch")
    layer_repo.git("checkout", "-q", "main")
    assert layer_repo.mj("finish", "--check").code == 0  # by hand: this branch's commits
    side = layer_repo.shell("git push origin side")
    assert side.code != 0 and "deploy/prod.yaml" in side.out, side
    layer_repo.git("push", "-q", "--no-verify", "origin", "side")
    gone = layer_repo.shell("git push -q origin :side")
    assert gone.code == 0, gone  # a deletion sends no commit


def test_by_hand_it_judges_the_tasks_commits_and_refuses_what_is_not_push_input(
    layer_repo: Repo, tmp_path
) -> None:
    _remote(layer_repo, tmp_path)
    layer_repo.write("elsewhere.txt", "x\n")
    assert layer_repo.mj("finish", "--check").code == 0  # not committed: nothing to push
    layer_repo.commit("outside")
    blocked = layer_repo.mj("finish", "--check")
    assert blocked.code == 10 and "elsewhere.txt" in blocked.out, blocked
    garbage = layer_repo.mj("finish", "--check", stdin="hello\n")
    assert garbage.code == 2 and garbage.err.count("\n") == 1, garbage
    assert "pre-push" in garbage.err
    empty = layer_repo.mj("finish", "--check", stdin="")
    assert empty.code == 10  # nothing on stdin: judged by hand
