"""The end of a provider's sitting (`capture session --event end`): the person's work goes on.

A sitting ending is not the task ending: the SessionEnd hook hands the task over (a handover
derived from what the tool knows, its `# Next Action` included) and closes the episode, and the
task stays active for the next sitting. A step of the hook that fails is logged once, doctor
warns about it with the command that acknowledges it, and it never refuses a commit by itself.
"""

from __future__ import annotations

import json
import subprocess

from conftest import Repo
from conftest import wire

STATE = ".ai/local/state"
LOG = ".ai/local/prompts/failures.log"


def shim(repo: Repo, name: str, payload: dict[str, object]) -> subprocess.CompletedProcess[str]:
    env = {**repo.env, "CLAUDE_PROJECT_DIR": str(repo.root)}
    return subprocess.run(
        [str(repo.root / ".claude/hooks" / name)],
        cwd=repo.root,
        env=env,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def sitting(repo: Repo, key: str, reason: str = "other") -> None:
    """A Claude Code sitting as its hooks see it: SessionStart, then SessionEnd (`claude -p`
    ends with reason `other`)."""
    opened = {"hook_event_name": "SessionStart", "session_id": key, "source": "startup"}
    assert shim(repo, "majordomus-session-start", opened).returncode == 0
    ended = {"hook_event_name": "SessionEnd", "session_id": key, "reason": reason}
    end = shim(repo, "majordomus-session-end", ended)
    assert end.returncode == 0 and end.stdout == "", end


def hooked(repo: Repo) -> Repo:
    """The adoption as `init` prints it: the projections, the git hooks, the provider hooks."""
    assert repo.mj("update").code == 0
    wire(repo)
    assert repo.mj("capture", "install").code == 0
    repo.commit("wire the hooks")
    return repo


def commit_through_hooks(repo: Repo, path: str) -> subprocess.CompletedProcess[str]:
    repo.write(path, f"{path} changed\n")
    repo.git("add", path)
    return subprocess.run(
        ["git", "commit", "-q", "--no-gpg-sign", "-m", f"change {path}"],
        cwd=repo.root,
        env=repo.env,
        capture_output=True,
        text=True,
        check=False,
    )


def record(repo: Repo) -> str:
    (closed,) = (repo.root / ".ai/repo/sessions").glob("*.md")
    return closed.read_text()


def test_a_sitting_with_a_task_hands_over_and_the_task_goes_on(layer_repo: Repo) -> None:
    repo = hooked(layer_repo)
    started = repo.mj("start", "tidy the readme", "--scope", "lib")
    assert started.code == 0, started
    task = started.out.split()[1]
    sitting(repo, "cc-day-1")
    assert not (repo.root / LOG).exists(), (repo.root / LOG).read_text()
    (handover,) = (repo.root / STATE / "handovers").glob("*.md")
    text = handover.read_text()
    assert f"task_id: {task}" in text
    next_action = text.split("# Next Action\n", 1)[1].split("\n# ", 1)[0].strip()
    assert task in next_action and "majordomus check" in next_action, next_action
    check = repo.mj("check")
    assert check.code == 0 and task in check.out, check  # the task is still active
    closed = record(repo)
    assert "outcome: closed" in closed and f"task_id: {task}" in closed, closed
    assert "title: tidy the readme" in closed and "profile: implementation" in closed, closed
    committed = commit_through_hooks(repo, "lib/a.txt")
    assert committed.returncode == 0, committed
    sitting(repo, "cc-day-2")  # a second sitting finds the task and hands it over again
    assert len(list((repo.root / STATE / "handovers").glob("*.md"))) == 2
    assert repo.mj("check").code == 0
    assert not (repo.root / LOG).exists()


def test_an_end_with_a_reason_the_client_names_as_forced_is_interrupted(
    layer_repo: Repo,
) -> None:
    repo = hooked(layer_repo)
    sitting(repo, "cc-forced", reason="bypass_permissions_disabled")
    assert "outcome: interrupted" in record(repo)


def test_a_failed_end_step_is_reported_once_and_never_blocks_a_commit(layer_repo: Repo) -> None:
    repo = hooked(layer_repo)
    policy = repo.root / ".ai/repo/policy.yaml"
    text = policy.read_text()
    policy.write_text(text.replace("    - Next Action\n", "    - Next Action\n    - Risks\n", 1))
    repo.commit("a handover names its risks")
    assert repo.mj("start", "tidy the readme", "--scope", "lib").code == 0
    sitting(repo, "cc-day-3")  # `# Risks` cannot be derived: the handover step fails
    log = (repo.root / LOG).read_text()
    assert log.count("\n") == 1 and "# Risks" in log, log
    assert "outcome: closed" in record(repo)  # the episode is closed all the same
    doctor = repo.mj("doctor")
    assert doctor.code == 0, doctor
    (line,) = [x for x in doctor.out.splitlines() if x.startswith("WARN capture")]
    assert "1 hook failure(s)" in line and "majordomus capture acknowledge" in line, line
    committed = commit_through_hooks(repo, "lib/b.txt")
    assert committed.returncode == 0, committed
    seen = repo.mj("capture", "acknowledge")
    assert seen.code == 0 and "# Risks" in seen.out, seen
    assert not (repo.root / LOG).exists() or (repo.root / LOG).read_text() == ""
    events = [json.loads(x) for x in (repo.root / STATE / "ledger.jsonl").read_text().splitlines()]
    (acknowledged,) = [e for e in events if e["event"] == "capture.acknowledged"]
    assert acknowledged["failures"] == 1 and "# Risks" in acknowledged["first"]
    after = repo.mj("doctor")
    assert after.code == 0 and "capture" not in after.out.split("doctor:")[0], after
    again = repo.mj("capture", "acknowledge")
    assert again.code == 0 and "nothing to acknowledge" in again.out, again
