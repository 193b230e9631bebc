"""`majordomus tour` walks the lifecycle: start, check, a session around checkpoint and handover,
finish, history."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from conftest import Repo


def step(out: str, command: str) -> str:
    """The output block of the step that ran `$ majordomus <command>`."""
    block = out.split(f"$ majordomus {command}\n", 1)[1]
    return block.split("\n== step", 1)[0]


def test_tour_runs_the_task_lifecycle(git_repo: Repo, tmp_path: Path) -> None:
    elsewhere = tmp_path / "not-a-repository"
    elsewhere.mkdir()
    result = git_repo.run("tour", cwd=elsewhere)
    scratch = Path(re.search(r"^scratch repository: (\S+)$", result.out, re.M).group(1))
    try:
        assert re.search(r"^exit 0$", step(result.out, "start add a greeting --scope lib"), re.M)
        assert "\nexit 0\n" in step(result.out, "check")
        assert ".ai/local/state/checkpoints/" in step(result.out, "checkpoint")
        assert ".ai/local/state/handovers/" in step(result.out, "handover")
        blocks = result.out.split("\n== step ")
        caught = next(b for b in blocks if "names the edited field" in b.split("\n", 1)[0])
        assert "current.yaml:outcome" in caught and "the ledger says active" in caught
        assert "\nexit 10\n" in caught
        refused = step(result.out, "finish --outcome completed --verify-command true")
        assert "FAIL verification" in refused and "not a pinned" in refused
        assert "\nexit 10\n" in refused
        done = step(result.out, "finish --outcome completed")
        assert "contract met" in done and "\nexit 0\n" in done
        assert "import lib.greeting" in done
        opened = re.search(
            r"^session (s-\d{14}-[0-9a-f]{4}) opened", step(result.out, "session start"), re.M
        )
        assert opened is not None
        session = opened.group(1)
        stamp = next(b for b in blocks if "carries the episode" in b.split("\n", 1)[0])
        assert f"task.checkpoint  session={session}" in stamp
        assert ".ai/repo/sessions/" in step(result.out, "session close")
        record = next(b for b in blocks if "the record the sitting left" in b.split("\n", 1)[0])
        assert f"session_id: {session}" in record and "checkpoints:\n  - 20" in record
        assert "handovers:\n  - 20" in record and ".ai/local" not in record  # by identity
        story = step(result.out, "history")
        events = ("task.started", "task.checkpoint", "task.handed_over", "task.finished")
        for event in (*events, "session.started", "session.closed"):
            assert event in story
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
