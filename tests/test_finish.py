"""`majordomus finish`: every contract line printed, each refusal with its code, the write."""

from __future__ import annotations

import json
import stat

from conftest import Repo

STATE = ".ai/local/state"
FULL = "# Objective\nFix it.\n\n# Current State\nFixed.\n\n# Next Action\nNone.\n"


def start(repo: Repo, *extra: str) -> str:
    result = repo.mj("start", "--json", "fix it", "--scope", "lib", *extra)
    assert result.code == 0, result
    return result.out.split('"id":"', 1)[1].split('"', 1)[0]


def ready(repo: Repo, *extra: str) -> str:
    """A started task with an in-scope change and a complete handover."""
    task = start(repo, *extra)
    repo.write("lib/a.py", "x = 1\n")
    assert repo.mj("handover", stdin=FULL).code == 0
    return task


def current(repo: Repo) -> str:
    return (repo.root / STATE / "current.yaml").read_text()


def finished_events(repo: Repo) -> list[dict]:
    lines = (repo.root / STATE / "ledger.jsonl").read_text().splitlines()
    return [e for e in map(json.loads, lines) if e["event"] == "task.finished"]


def test_no_task_is_missing_artifact(layer_repo: Repo) -> None:
    result = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "true")
    assert result.code == 12 and result.err.count("\n") == 1, result


def test_outcome_is_required_and_closed(layer_repo: Repo) -> None:
    assert layer_repo.mj("finish").code == 2
    assert layer_repo.mj("finish", "--outcome", "done").code == 2


def test_without_verification_completion_is_refused_and_nothing_written(layer_repo: Repo) -> None:
    ready(layer_repo)
    before = current(layer_repo)
    result = layer_repo.mj("finish", "--outcome", "completed")
    assert result.code == 10, result
    assert "FAIL verification" in result.out
    assert result.out.endswith("blocking doctrines:\n- majordomus.verification-ran\n")
    assert current(layer_repo) == before and finished_events(layer_repo) == []
    assert not (layer_repo.root / STATE / "completed").exists()


def test_verification_runs_without_a_shell(layer_repo: Repo) -> None:
    ready(layer_repo)
    before = (layer_repo.root / STATE / "ledger.jsonl").read_bytes()
    for text in ("false || true", "make test | tee log", "a && b", "x > y", "echo `id`"):
        refused = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", text)
        assert refused.code == 2 and "without a shell" in refused.err, refused
        assert "sh -c" in refused.err and refused.err.count("\n") == 1
    assert (layer_repo.root / STATE / "ledger.jsonl").read_bytes() == before
    result = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "false")
    assert result.code == 10 and "FAIL verification" in result.out, result
    assert "exit 1" in result.out
    shell = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "sh -c 'exit 3'")
    assert shell.code == 10 and "exit 3" in shell.out, shell


def test_success_writes_outcome_ledger_and_private_note(layer_repo: Repo) -> None:
    task = ready(layer_repo)
    result = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "git --version")
    assert result.code == 0, result
    levels = [line.split()[0] for line in result.out.splitlines()[:-1]]
    assert levels == ["OK"] * 5
    assert "outcome: completed" in current(layer_repo)
    (event,) = finished_events(layer_repo)
    assert event["task_id"] == task and event["outcome"] == "completed"
    assert event["verify"]["command"] == "git --version" and event["verify"]["exit"] == 0
    assert set(event["contract"].values()) == {"pass"}
    note = layer_repo.root / STATE / "completed" / f"{task}.md"
    assert stat.S_IMODE(note.stat().st_mode) == 0o600 and "# Objective" in note.read_text()
    assert layer_repo.git("diff", "--cached", "--name-only") == ""
    again = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "true")
    assert again.code == 15, again


def test_scope_violation_fails_the_scope_line(layer_repo: Repo) -> None:
    ready(layer_repo)
    layer_repo.write("config/secret.txt", "x\n")
    result = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "true")
    assert result.code == 10 and "majordomus.scope-integrity" in result.out, result
    reproduce = result.out.split("[reproduce: ", 1)[1].split("]", 1)[0]
    assert "config/secret.txt" in layer_repo.shell(reproduce).out


def test_a_copy_claiming_another_worktree_is_a_disagreement_not_an_escape(layer_repo: Repo) -> None:
    start(layer_repo)
    path = layer_repo.root / STATE / "current.yaml"
    path.write_text(path.read_text().replace("worktree_id: .", "worktree_id: worktrees/other"))
    before = (layer_repo.root / STATE / "ledger.jsonl").read_bytes()
    result = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "true")
    assert result.code == 10 and "worktree_id: current.yaml says worktrees/other" in result.out
    assert (layer_repo.root / STATE / "ledger.jsonl").read_bytes() == before
    assert layer_repo.mj("finish", "--check").code == 10


def test_partial_needs_a_note_with_next_action(layer_repo: Repo) -> None:
    task = start(layer_repo)
    layer_repo.write(".ai/local/note.md", "# Reason\nno time\n")
    result = layer_repo.mj("finish", "--outcome", "partial", "--note", ".ai/local/note.md")
    assert result.code == 10 and "lacks # Next Action" in result.out, result
    assert "INFO verification" in result.out
    layer_repo.write(".ai/local/note.md", "---\noutcome: partial\n---\n# Next Action\nresume\n")
    result = layer_repo.mj("finish", "--outcome", "partial", "--note", ".ai/local/note.md")
    assert result.code == 0, result
    copied = (layer_repo.root / STATE / "completed" / f"{task}.md").read_text()
    assert copied.startswith("---\noutcome: partial")


def test_a_note_is_an_input_document_read_from_anywhere(layer_repo: Repo, tmp_path) -> None:
    task = start(layer_repo)
    outside = tmp_path / "note.md"
    outside.write_text("# Reason\nthe service it needs is gone\n")
    missing = layer_repo.mj("finish", "--outcome", "failed", "--note", str(tmp_path / "none.md"))
    assert missing.code == 12 and missing.err.count("\n") == 1, missing
    folder = layer_repo.mj("finish", "--outcome", "failed", "--note", str(tmp_path))
    assert folder.code == 2 and "not a regular file" in folder.err, folder
    result = layer_repo.mj("finish", "--outcome", "failed", "--note", str(outside))
    assert result.code == 0, result
    copied = layer_repo.root / STATE / "completed" / f"{task}.md"
    assert copied.read_text() == outside.read_text()


def test_a_note_on_standard_input(layer_repo: Repo) -> None:
    start(layer_repo)
    body = "# Next Action\nPick up the parser.\n"
    result = layer_repo.mj("finish", "--outcome", "partial", "--note", "-", stdin=body)
    assert result.code == 0, result


def test_unknown_finish_requires_key_is_reported_and_refuses(layer_repo: Repo) -> None:
    """Refused (10) naming the key: by the policy reader (file:line) or by the contract line."""
    ready(layer_repo)
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    policy.write_text(policy.read_text().replace("- note_present", "- note_present\n    - vibes"))
    result = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "true")
    assert result.code == 10 and "'vibes'" in result.out + result.err, result
    assert "policy.yaml:" in result.err or "- finish_requires:vibes" in result.out
    assert "outcome: active" in current(layer_repo) and finished_events(layer_repo) == []


def test_profile_requires_a_regression_test(layer_repo: Repo) -> None:
    ready(layer_repo, "--profile", "debugging")
    result = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "true")
    assert result.code == 10 and "majordomus.regression-test-required" in result.out, result
    layer_repo.write("lib/tests/test_a.py", "def test(): pass\n")
    ok = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "true")
    assert ok.code == 0, ok


def test_check_is_inert_without_a_task_and_judges_scope_and_state(layer_repo: Repo) -> None:
    result = layer_repo.mj("finish", "--check")
    assert result.code == 0 and "no task in this checkout" in result.out, result
    start(layer_repo)
    assert layer_repo.mj("finish", "--check").code == 0
    layer_repo.write("elsewhere.txt", "x\n")
    assert layer_repo.mj("finish", "--check").code == 0  # not committed: not pushed
    layer_repo.commit("outside the claim")
    blocked = layer_repo.mj("finish", "--check")
    assert blocked.code == 10 and "FAIL scope" in blocked.out, blocked
    assert not finished_events(layer_repo)


def test_json_output_is_findings_then_a_summary(layer_repo: Repo) -> None:
    ready(layer_repo)
    result = layer_repo.mj("finish", "--outcome", "completed", "--json")
    records = [json.loads(line) for line in result.out.splitlines()]
    assert [r["kind"] for r in records] == ["finding"] * 5 + ["record", "summary"]
    assert records[-2]["action"] == "refused"
    assert records[-2]["blocking"] == ["majordomus.verification-ran"]
    assert records[-1]["exit"] == 10 == result.code
