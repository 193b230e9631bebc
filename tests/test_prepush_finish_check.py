"""The pre-push hook line `majordomus finish --check || exit $?` gates `git push` on scope."""

from __future__ import annotations

import stat

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

    assert layer_repo.run("mj-state", "start", "fix lib", "--scope", "lib").code == 0
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
