"""`majordomus start` and `majordomus check` on real git histories."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from conftest import Repo
from conftest import make_env

STATE = ".ai/local/state"


def started(repo: Repo, scope: str = "lib", *extra: str) -> str:
    result = repo.mj("start", "narrow the parser", "--scope", scope, *extra)
    assert result.code == 0, result
    match = re.search(r"started (t-\d{14}-[0-9a-f]{4})", result.out)
    assert match, result
    return match.group(1)


def ledger(repo: Repo) -> list[dict]:
    text = (repo.root / STATE / "ledger.jsonl").read_text()
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0]["event"] == "layer.adopted"  # `init`'s one line (the bootstrap hatch)
    return lines[1:]


def test_start_writes_the_record_and_one_ledger_line(layer_repo: Repo) -> None:
    task = started(layer_repo, "lib/,./docs//", "--owner", "alice", "--profile", "debugging")
    text = (layer_repo.root / STATE / "current.yaml").read_text()
    head = layer_repo.git("rev-parse", "HEAD").strip()
    assert text.splitlines()[:4] == [
        f"id: {task}",
        "task: narrow the parser",
        "profile: debugging",
        "owner: alice",
    ]
    assert "scope:\n  - lib\n  - docs\n" in text
    assert (
        "outcome: active\n\n# computed from git at start; refreshed at finish; never authored\n"
        in text
    )
    assert f"head: {head}\n" in text and f"worktree: {layer_repo.root}\n" in text
    assert "repository_id: " + str(layer_repo.root / ".git") in text
    lines = ledger(layer_repo)
    assert [line["event"] for line in lines] == ["task.started"]
    assert lines[0]["task_id"] == task and lines[0]["scope"] == ["lib", "docs"]
    assert lines[0]["owner"] == "alice" and lines[0]["head"] == head


def test_start_refusals(layer_repo: Repo) -> None:
    assert layer_repo.mj("start", "x").code == 2
    escape = layer_repo.mj("start", "x", "--scope", "lib,../elsewhere")
    assert escape.code == 15 and "../elsewhere" in escape.err
    assert layer_repo.mj("start", "x", "--scope", "/etc").code == 15
    missing = layer_repo.mj("start", "x", "--scope", "lib", "--profile", "nope")
    assert missing.code == 12 and "profiles/" in missing.err
    assert not (layer_repo.root / STATE / "current.yaml").exists()
    started(layer_repo)
    again = layer_repo.mj("start", "y", "--scope", "lib")
    assert again.code == 15 and "active" in again.err and len(again.err.splitlines()) == 1


def test_terminal_record_is_archived_first(layer_repo: Repo) -> None:
    first = started(layer_repo)
    record = layer_repo.root / STATE / "current.yaml"
    body = "# Objective\nNarrow it.\n# Current State\nHalf.\n# Next Action\nThe rest.\n"
    assert layer_repo.mj("handover", "--close", stdin=body).code == 0
    second = started(layer_repo)
    archived = layer_repo.root / STATE / "archive" / f"{first}.yaml"
    assert "outcome: handed_over" in archived.read_text()
    assert f"id: {second}" in record.read_text()


def test_an_edited_copy_neither_ends_a_task_nor_opens_the_way_to_start(layer_repo: Repo) -> None:
    started(layer_repo)
    record = layer_repo.root / STATE / "current.yaml"
    record.write_text(record.read_text().replace("outcome: active", "outcome: completed"))
    before = (layer_repo.root / STATE / "ledger.jsonl").read_bytes()
    again = layer_repo.mj("start", "y", "--scope", "lib")
    assert again.code == 15 and "is active" in again.err, again
    assert (layer_repo.root / STATE / "ledger.jsonl").read_bytes() == before
    record.unlink()
    assert layer_repo.mj("start", "y", "--scope", ".").code == 15


def test_check_without_task_is_missing_artifact(layer_repo: Repo) -> None:
    result = layer_repo.mj("check")
    assert result.code == 12 and "majordomus start" in result.err


def reproduce(result_out: str) -> list[str]:
    return re.findall(r"\[reproduce: (.*)\]$", result_out, flags=re.M)


def test_scope_violation_staged_and_committed(layer_repo: Repo) -> None:
    started(layer_repo, "lib")
    layer_repo.write("lib/ok.py", "x\n")
    layer_repo.write("config/secret.example", "k\n")
    layer_repo.git("add", "config/secret.example")
    staged = layer_repo.mj("check")
    assert staged.code == 10, staged
    assert "FAIL scope       config/secret.example — outside claimed scope (lib)" in staged.out
    assert "lib/ok.py" not in staged.out
    shown = layer_repo.shell(reproduce(staged.out)[0])
    assert "config/secret.example" in shown.out
    layer_repo.commit("outside", "config/secret.example")
    layer_repo.git("rm", "-q", "--cached", "lib/ok.py", check=False)
    committed = layer_repo.mj("check")
    assert committed.code == 10 and "config/secret.example" in committed.out
    assert "config/secret.example" in layer_repo.shell(reproduce(committed.out)[0]).out


def test_the_layer_is_in_scope_only_when_claimed_a_projection_only_as_update_writes_it(
    layer_repo: Repo,
) -> None:
    started(layer_repo, "lib")
    layer_repo.write(".ai/repo/project/notes.md", "n\n")  # a record store: the plan's
    layer_repo.write(".ai/repo/prompts/extra.md", "p\n")
    layer_repo.commit("layer edits")
    result = layer_repo.mj("check")
    assert result.code == 10 and "FAIL scope       .ai/repo/prompts/extra.md" in result.out
    assert "the layer is in scope only for a claim naming it" in result.out, result
    assert ".ai/repo/project/notes.md" not in result.out, result
    layer_repo.git("rm", "-q", ".ai/repo/prompts/extra.md")
    layer_repo.commit("taken back")
    assert layer_repo.mj("check").code == 0
    assert layer_repo.mj("update").code == 0
    assert layer_repo.mj("check").code == 0
    layer_repo.write("CLAUDE.md", "c\n")
    layer_repo.commit("a projection written by hand")
    edited = layer_repo.mj("check")
    assert edited.code == 10 and "FAIL scope       CLAUDE.md" in edited.out, edited
    assert "`majordomus update` writes this file, but not as it is now" in edited.out


def test_divergence_labels_from_real_histories(layer_repo: Repo) -> None:
    layer_repo.git("branch", "upstream")
    layer_repo.write("lib/base.py", "b\n")
    layer_repo.commit("base of the task")
    started(layer_repo, "lib")
    assert "exact (head" in layer_repo.mj("check").out
    layer_repo.write("lib/a.py", "a\n")
    layer_repo.commit("work")
    advanced = layer_repo.mj("check")
    assert advanced.code == 0 and "advanced (head" in advanced.out
    layer_repo.git("checkout", "-q", "upstream")
    layer_repo.write("docs/up.md", "u\n")
    layer_repo.commit("upstream moved")
    layer_repo.git("checkout", "-q", "main")
    layer_repo.git("rebase", "-q", "upstream")
    diverged = layer_repo.mj("check")
    assert diverged.code == 10 and "FAIL state" in diverged.out and "diverged" in diverged.out
    assert "diverged" in layer_repo.shell(reproduce(diverged.out)[0]).out
    layer_repo.git("checkout", "-q", "-b", "elsewhere")
    other = layer_repo.mj("check")
    assert other.code == 10 and "different_context — branch main → elsewhere" in other.out


def test_record_from_another_worktree_is_reported_not_enforced(layer_repo: Repo) -> None:
    started(layer_repo, "lib")
    linked = layer_repo.root.parent / "linked"
    layer_repo.git("worktree", "add", "-q", str(linked), "-b", "linked")
    (linked / STATE).mkdir(parents=True)
    (linked / STATE / "current.yaml").write_bytes(
        (layer_repo.root / STATE / "current.yaml").read_bytes()
    )
    (linked / "outside.txt").write_text("x\n")
    result = layer_repo.run("check", cwd=linked)
    assert result.code == 0, result
    assert "WARN state" in result.out and "different_context" in result.out
    assert "outside.txt" not in result.out
    assert layer_repo.run("check", "--checkpoint", cwd=linked).code == 15
    (linked / STATE / "ledger.jsonl").write_bytes(
        (layer_repo.root / STATE / "ledger.jsonl").read_bytes()
    )  # the whole state copied: the ledger's task was started in the main worktree
    (linked / STATE / "ledger.tip").write_bytes(
        (layer_repo.root / STATE / "ledger.tip").read_bytes()
    )
    copied = layer_repo.run("check", cwd=linked)
    assert copied.code == 0 and "different_context" in copied.out, copied
    assert layer_repo.run("finish", "--outcome", "failed", cwd=linked).code == 15


def test_checkpoint_age_warns_and_check_checkpoint_is_the_only_write(layer_repo: Repo) -> None:
    profile = layer_repo.root / ".ai/repo/profiles/implementation.yaml"
    profile.write_text(
        re.sub(r"checkpoint_interval: \S+", "checkpoint_interval: 1s", profile.read_text())
    )
    layer_repo.commit("a short interval")  # a task is judged by the profile as it started
    started(layer_repo, "lib")
    record = layer_repo.root / STATE / "current.yaml"
    text = record.read_text()
    before = (layer_repo.root / STATE / "ledger.jsonl").read_bytes()
    time.sleep(2.2)
    stale = layer_repo.mj("check")
    assert stale.code == 0 and "WARN checkpoint" in stale.out and "interval 1s" in stale.out
    assert (layer_repo.root / STATE / "ledger.jsonl").read_bytes() == before
    assert record.read_text() == text
    moved = layer_repo.mj("check", "--checkpoint")
    assert moved.code == 0, moved
    assert record.read_text() != text
    assert [line["event"] for line in ledger(layer_repo)] == ["task.started", "task.checkpoint"]
    assert "OK   checkpoint" in layer_repo.mj("check").out


def test_an_edited_checkpoint_time_is_caught_and_put_right(layer_repo: Repo) -> None:
    started(layer_repo, "lib")
    record = layer_repo.root / STATE / "current.yaml"
    record.write_text(
        re.sub(r"checkpoint_at: \S+", "checkpoint_at: 2099-01-01T00:00:00Z", record.read_text())
    )
    caught = layer_repo.mj("check")
    assert caught.code == 10 and "checkpoint_at: current.yaml says 2099" in caught.out, caught
    for command in reproduce(caught.out):
        assert layer_repo.shell(command).code == 0
    assert layer_repo.mj("check", "--checkpoint").code == 10  # reported, then the copy rewritten
    assert "2099" not in record.read_text() and layer_repo.mj("check").code == 0


def test_malformed_lines_and_open_questions_fail(layer_repo: Repo) -> None:
    task = started(layer_repo, "lib")
    questions = layer_repo.root / STATE / "open-questions.md"
    with questions.open("a") as handle:
        handle.write(f"- [unresolved] {task} — tabs or spaces? (2026-09-03)\n- [open] broken\n")
    with (layer_repo.root / STATE / "ledger.jsonl").open("a") as handle:
        handle.write("not json\n")
    result = layer_repo.mj("check")
    assert result.code == 10
    assert "FAIL blockers" in result.out and '"tabs or spaces?" unresolved' in result.out
    assert "FAIL questions   .ai/local/state/open-questions.md:" in result.out
    assert "FAIL ledger      .ai/local/state/ledger.jsonl:3" in result.out
    for command in reproduce(result.out):
        assert layer_repo.shell(command).out.strip(), command


def test_check_judges_the_task_s_lines_doctor_and_validate_the_whole_ledger(
    layer_repo: Repo,
) -> None:
    """A line garbled before the task began is not the task's: `check` (run by hooks) judges
    the lines from the task's `task.started` on, `history --validate` and doctor every line."""
    import hashlib
    import json

    started(layer_repo, "lib")
    body = "# Reason\nsuperseded\n"
    assert layer_repo.mj("finish", "--outcome", "failed", "--note", "-", stdin=body).code == 0
    ledger = layer_repo.root / STATE / "ledger.jsonl"
    lines = ledger.read_bytes().splitlines(keepends=True)
    lines[0] = b"not json\n"  # and the tip made to vouch for the result, as a forger would
    ledger.write_bytes(b"".join(lines))
    last = hashlib.blake2b(lines[-1].rstrip(b"\n"), digest_size=32).hexdigest()
    tip = {"size": ledger.stat().st_size, "last": last}
    (layer_repo.root / STATE / "ledger.tip").write_text(json.dumps(tip) + "\n")
    started(layer_repo, "lib")
    result = layer_repo.mj("check")
    assert result.code == 0 and "FAIL ledger" not in result.out, result
    validate = layer_repo.mj("history", "--validate")
    assert validate.code == 10, validate
    assert "FAIL ledger      .ai/local/state/ledger.jsonl:1" in validate.out
    assert ".ai/local/state/ledger.jsonl:1" in layer_repo.mj("doctor").out


def test_corrupt_record_is_one_failure(layer_repo: Repo) -> None:
    layer_repo.write(f"{STATE}/current.yaml", "id: t-1\nfoo: [\n")
    result = layer_repo.mj("check")
    assert result.code == 10 and "FAIL state" in result.out and "Traceback" not in result.err


def test_explain_prints_the_effective_setup(layer_repo: Repo) -> None:
    task = started(layer_repo, "lib")
    result = layer_repo.mj("check", "--explain")
    assert result.code == 0, result
    lines = result.out.splitlines()
    assert lines[0] == "# task" and lines[1] == f"  id={task}"
    assert "  scope.0=lib" in lines
    assert "# profile implementation" in lines and "  checkpoint_interval=15m" in lines
    assert "# policy" in lines and "  version=1" in lines
    doctrines = lines[lines.index("# doctrines in force") + 1 :]
    assert (
        "  majordomus.scope-integrity (blocking; enforced by check, finish, capture)" in doctrines
    )
    assert "  majordomus.retention-caps (blocking; enforced by doctor)" in doctrines
    assert "  majordomus.checkpoint-freshness (advisory; enforced by check)" in doctrines
    shipped = layer_repo.mj("doctrine", "list").out.count("INFO doctrine    majordomus.")
    assert len(doctrines) == shipped == 22, doctrines  # every doctrine, not check's alone


def test_tour_shows_check_catching_a_change_outside_the_scope(git_repo: Repo, tmp_path) -> None:
    import shutil
    from pathlib import Path

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = git_repo.run("tour", cwd=elsewhere)
    scratch = Path(re.search(r"^scratch repository: (\S+)$", result.out, re.M).group(1))
    shutil.rmtree(scratch, ignore_errors=True)
    assert result.code == 0, result
    step = result.out.split("check names the file outside the scope")[1].split("== step")[0]
    assert "$ majordomus check\n" in step
    assert "FAIL scope       config/settings.ini — outside claimed scope (lib)" in step
    assert re.search(r"^exit 10$", step, re.M)


def test_start_in_a_repository_without_a_commit_is_refused(tmp_path: Path) -> None:
    """No HEAD to anchor identity to: 12, and no record the tool could not read back."""
    root = tmp_path / "unborn"
    root.mkdir()
    repo = Repo(root, make_env(tmp_path / "home"))
    repo.git("init", "-q", "-b", "main")
    assert repo.mj("init").code == 0
    result = repo.mj("start", "fix", "--scope", "lib")
    assert result.code == 12, result
    assert "no commit yet" in result.err and result.err.count("\n") == 1
    assert not (root / ".ai/local/state/current.yaml").exists()
    lines = (root / ".ai/local/state/ledger.jsonl").read_text().splitlines()
    assert [json.loads(x)["event"] for x in lines] == ["layer.adopted"]  # init's, nothing more


def test_a_scope_that_claims_nothing_that_exists_is_warned_about(layer_repo: Repo) -> None:
    (layer_repo.root / "lib").mkdir(exist_ok=True)
    (layer_repo.root / "lib" / "gone.py").write_text("x = 1\n")
    layer_repo.git("add", "lib/gone.py")
    layer_repo.git("commit", "-qm", "a file")
    (layer_repo.root / "lib" / "gone.py").unlink()  # deleted, still tracked: it claims that
    result = layer_repo.mj("start", "typo", "--scope", "lib/gone.py,does/not/exist,.ai", "--json")
    assert result.code == 0, result
    warned = [
        json.loads(line)
        for line in result.out.splitlines()
        if '"kind":"finding"' in line and '"level":"WARN"' in line
    ]
    assert [(f["category"], f["subject"]) for f in warned] == [("scope", "does/not/exist")]
    assert "ls -d does/not/exist" in warned[0]["reproduce"]
    assert "does/not/exist" in (layer_repo.root / STATE / "current.yaml").read_text()
