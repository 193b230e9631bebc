"""`majordomus verify` and the declared pre-commit hook: the base policy wires it as
`doctor --commit`, which records each pass for the tree being committed; a commit made inside a
task with `git commit --no-verify` has no pass, and is WARN naming it — FAIL once the base policy
sets `verify.require_hooks: true`. A commit that went through the hook is not named."""

from __future__ import annotations

from pathlib import Path

from conftest import Repo
from conftest import wire
from verifyworld import NOTE
from verifyworld import World


def task(worker: Repo, name: str, *, hooked: bool) -> str:
    """A task on lib/<name>, finished, committed (through the hook, or past it), published."""
    assert worker.mj("start", name, "--scope", f"lib/{name}").code == 0
    worker.write(f"lib/{name}/parse.txt", "good\n")
    done = worker.mj("finish", "--outcome", "completed", "--note", "-", stdin=NOTE)
    assert done.code == 0, done
    worker.git("add", "-A")
    if hooked:
        worker.git("commit", "-q", "--no-gpg-sign", "-m", name)  # the pre-commit hook runs
    else:
        worker.git("commit", "-q", "--no-gpg-sign", "--no-verify", "-m", name)
    assert worker.mj("sync").code == 0  # the ledger published after the commit
    return worker.git("rev-parse", "HEAD").strip()


def layer(findings: list[dict[str, object]], level: str) -> set[object]:
    return {f["subject"] for f in findings if f["category"] == "layer" and f["level"] == level}


def test_a_commit_past_the_pre_commit_hook_is_named(tmp_path: Path) -> None:
    world = World(tmp_path, recording=True)
    try:
        worker = world.worker()
        wire(worker)
        through = task(worker, "through", hooked=True)
        past = task(worker, "past", hooked=False)
        worker.git("push", "-q", "--no-verify", "origin", "HEAD:refs/heads/hooks")
        code, findings, err = world.verify("hooks")
        assert code == 0, (findings, err)
        assert past[:12] in layer(findings, "WARN"), findings
        assert through[:12] not in layer(findings, "WARN") | layer(findings, "FAIL"), findings

        policy = worker.root / ".ai/repo/policy.yaml"
        policy.write_text(policy.read_text().replace("require_task: true", "require_hooks: true"))
        worker.git("add", "-A")
        worker.git("commit", "-q", "--no-gpg-sign", "-m", "the hooks are required")
        worker.git("push", "-q", "--no-verify", "origin", "HEAD:refs/heads/main")
        base = worker.git("rev-parse", "HEAD").strip()
        strict = task(worker, "strict", hooked=False)
        worker.git("push", "-q", "--no-verify", "origin", "HEAD:refs/heads/strict")
        code, findings, _ = world.verify("strict", base=base)
        assert code == 10, findings
        [line] = [f for f in findings if f["level"] == "FAIL"]
        assert line["subject"] == strict[:12] and "--no-verify" in str(line["message"]), line
    finally:
        world.remote.close()
