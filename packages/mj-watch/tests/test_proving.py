"""`doctor --prove`: hooks run in a throw-away worktree, with a recording majordomus shim."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from mj_watch.wiring import proving
from mj_watch.wiring import proving_run as provingrun
from mj_watch.wiring.check import Entry

ENV = {
    **os.environ,
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
}


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, env=ENV, check=True, capture_output=True)
    return done.stdout.decode()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "README.md").write_text("# scratch\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "init")
    return repo


def hook(root: Path, name: str, body: str) -> None:
    path = root / ".git/hooks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    path.chmod(0o755)


def entry(wired_by: str = "git-hook:pre-commit", path: str = "majordomus", *args: str) -> Entry:
    return Entry(
        {"name": "e", "path": path, "args": list(args or ["doctor"]), "wired_by": wired_by}
    )


def verdict(root: Path, one: Entry, timeout: float = proving.TIMEOUT) -> tuple[str, str]:
    found = proving.prove(root, [one], root / ".git/hooks", timeout=timeout)
    return found["e"].level, found["e"].message


def state(root: Path) -> tuple[bytes, str, str, list[str]]:
    worktrees = root / ".git/worktrees"
    return (
        (root / ".git/index").read_bytes(),
        git(root, "status", "--porcelain=v1", "--untracked-files=all"),
        git(root, "rev-parse", "HEAD"),
        sorted(os.listdir(worktrees)) if worktrees.exists() else [],
    )


def test_a_wired_hook_is_proven_and_nothing_of_the_user_changes(root: Path) -> None:
    hook(root, "pre-commit", "#!/bin/sh\nmajordomus doctor || exit $?\n")
    (root / "work.txt").write_text("uncommitted\n")
    git(root, "add", "work.txt")
    (root / "README.md").write_text("# edited, not staged\n")
    before = state(root)
    level, message = verdict(root, entry())
    assert level == "OK" and "exited 97" in message
    assert state(root) == before
    assert git(root, "worktree", "list", "--porcelain").count("worktree ") == 1


def test_each_line_of_a_hook_with_several_is_proven(root: Path) -> None:
    body = "#!/bin/sh\nmajordomus finish --check || exit $?\nmajordomus sync || exit $?\n"
    hook(root, "pre-push", body)
    for args in (("finish", "--check"), ("sync",)):
        level, message = verdict(root, entry("git-hook:pre-push", "majordomus", *args))
        assert level == "OK" and "exited 97" in message, (args, message)
    hook(root, "pre-push", "#!/bin/sh\nmajordomus finish --check || exit $?\nmajordomus sync\n")
    level, message = verdict(root, entry("git-hook:pre-push", "majordomus", "sync"))
    assert level == "OK", message  # the last line's status is the hook's
    hook(root, "pre-push", "#!/bin/sh\nmajordomus sync\nexit 0\n")
    level, message = verdict(root, entry("git-hook:pre-push", "majordomus", "sync"))
    assert level == "FAIL" and "then exited 0" in message, message


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (
            "majordomus doctor; exit 0",
            "ran `majordomus doctor`, which exited 97, and then exited 0",
        ),
        ("majordomus doctor | cat", "then exited 0"),
        ("majordomus doctor --help || exit $?", "ran `majordomus doctor --help`, never"),
        ("exit 0\nmajordomus doctor", "exited 0 without running"),
        ("echo nope >&2; exit 3", "exited 3 without running `majordomus doctor` in a checkout"),
    ],
)
def test_hooks_that_do_not_carry_the_status_are_not_wired(root: Path, body: str, why: str) -> None:
    hook(root, "pre-commit", f"#!/bin/sh\n{body}\n")
    level, message = verdict(root, entry())
    assert level == "FAIL" and why in message, message


def test_a_hook_that_hangs_is_stopped_and_not_wired(root: Path) -> None:
    hook(root, "pre-commit", "#!/bin/sh\nsleep 30 &\nsleep 30\nmajordomus doctor || exit $?\n")
    before = state(root)
    level, message = verdict(root, entry(), timeout=0.5)
    assert level == "FAIL" and "still running after 0.5 s" in message
    assert state(root) == before


def test_the_worktree_is_removed_when_running_fails(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hook(root, "pre-commit", "#!/bin/sh\nmajordomus doctor || exit $?\n")
    before = state(root)

    def broken(*args: object, **kwargs: object) -> provingrun.Run:
        raise RuntimeError("the machine broke")

    monkeypatch.setattr(provingrun, "run_hook", broken)
    with pytest.raises(RuntimeError):
        verdict(root, entry())
    assert state(root) == before


def test_a_repository_without_a_commit_cannot_be_proven(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    hook(tmp_path, "pre-commit", "#!/bin/sh\nmajordomus doctor || exit $?\n")
    level, message = verdict(tmp_path, entry())
    assert level == "FAIL" and "cannot check out HEAD" in message


def test_hooks_run_as_git_runs_them(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_DIR", "/nonexistent")  # as inside another hook: scrubbed
    hook(
        root,
        "pre-push",
        '#!/bin/sh\n[ -z "$GIT_DIR" ] || exit 3\n[ "$1" = origin ] || exit 4\n'
        "read local sha remote zero || exit 5\n"
        '[ "$sha" = "$(git rev-parse HEAD)" ] || exit 6\n'
        "[ -f README.md ] || exit 7\nmajordomus finish --check || exit $?\n",
    )
    assert verdict(root, entry("git-hook:pre-push", "majordomus", "finish", "--check"))[0] == "OK"
    hook(root, "commit-msg", 'grep -q proof "$1" || exit 3\nmajordomus doctor\n')  # no `#!`
    assert verdict(root, entry("git-hook:commit-msg"))[0] == "OK"


def test_a_repository_relative_path_is_shimmed_in_the_checkout(root: Path) -> None:
    tool = root / "tools/mj"
    tool.parent.mkdir()
    tool.write_text("#!/bin/sh\nexit 0\n")
    tool.chmod(0o755)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "tool")
    hook(root, "pre-commit", "#!/bin/sh\ntools/mj doctor || exit $?\n")
    assert verdict(root, entry("git-hook:pre-commit", "tools/mj"))[0] == "OK"
    assert tool.read_text() == "#!/bin/sh\nexit 0\n"


def test_entries_no_hook_can_prove_are_left_to_the_static_check(root: Path) -> None:
    entries = [entry("git-hook:pre-push"), entry("manual"), entry("ci:.ci/run")]
    assert proving.prove(root, entries, root / ".git/hooks") == {}
