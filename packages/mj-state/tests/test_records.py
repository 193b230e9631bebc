from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from mj_core import clock
from mj_core.errors import ContractUnmet
from mj_core.errors import MjError
from mj_core.write import atomic
from mj_state.records import resolve
from mj_state.records import store as records

ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(root: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", *args], cwd=root, env=ENV, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "a.txt").write_text("a\n")
    git(root, "add", "a.txt")
    git(root, "commit", "-q", "--no-gpg-sign", "-m", "one")
    return root


TASK = {"id": "t-20260903193012-a4f1", "profile": "debugging", "owner": "alice"}


def write(root: Path, kind: str, body: str, task: dict | None = TASK, stamp: str = "") -> Path:
    moment = clock.parse_iso(stamp) if stamp else clock.now()
    assert moment is not None
    front = records.front_matter(
        root, task, profile="implementation", owner="bob", changed_files=[], moment=moment
    )
    return records.publish(root / "state", kind, front, body, name="<stdin>")


def test_written_record_has_computed_front_matter_mode_0600_and_name(repo: Path) -> None:
    path = write(repo, "checkpoint", "progress\n")
    assert path.parent == repo / "state" / "checkpoints"
    assert path.stat().st_mode & 0o777 == 0o600
    _stamp, key, short, tail = path.name.split("--")
    assert key == "main" and short == git(repo, "rev-parse", "HEAD")[:7]
    assert len(tail) == len("0123456789abcdef.md")
    rec = records.read(path, repo)
    assert list(rec.front) == [
        "schema_version", "created_at", "task_id", "profile", "owner", "repository_id",
        "worktree", "worktree_id", "branch", "head", "working_tree", "changed_files",
    ]  # fmt: skip
    assert rec.front["task_id"] == TASK["id"] and rec.front["head"] == git(
        repo, "rev-parse", "HEAD"
    )
    assert rec.body == "progress\n" and rec.label == "exact"
    assert git(repo, "status", "--porcelain") == "?? state/"


def test_without_task_the_record_says_none(repo: Path) -> None:
    rec = records.read(write(repo, "handover", "x\n", task=None), repo)
    assert rec.front["task_id"] == "none" and rec.front["owner"] == "bob"


@pytest.mark.parametrize("line", ["head: abc", "Branch: main", "- task_id: t-1", "changed_files:"])
def test_identity_like_body_line_is_refused_and_nothing_written(repo: Path, line: str) -> None:
    with pytest.raises(ContractUnmet) as err:
        write(repo, "checkpoint", f"ok\n{line}\n")
    assert err.value.code == 10 and "<stdin>:2:" in err.value.message
    assert not (repo / "state" / "checkpoints").exists()


def test_a_taken_name_is_retried_never_overwritten(repo: Path, monkeypatch) -> None:
    first = write(repo, "checkpoint", "one\n", stamp="2026-09-03T19:45:00Z")
    names = iter([first.name.rsplit("--", 1)[1], "fedcba9876543210.md"])
    monkeypatch.setattr(records.ids, "random_hex", lambda n: next(names).removesuffix(".md"))
    second = write(repo, "checkpoint", "two\n", stamp="2026-09-03T19:45:00Z")
    assert second != first and first.read_text().endswith("one\n")


def test_crash_between_temp_and_publish_leaves_no_record(repo: Path, monkeypatch) -> None:
    def crash(temp: Path, target: Path) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic, "_before_publish", crash)
    with pytest.raises(KeyboardInterrupt):
        write(repo, "handover", "body\n")
    assert os.listdir(repo / "state" / "handovers") == []


def test_unknown_front_matter_key_is_refused(repo: Path) -> None:
    path = write(repo, "checkpoint", "x\n")
    path.chmod(0o600)
    text = path.read_text().replace("schema_version: 1\n", "schema_version: 1\nmood: good\n")
    bad = path.with_name("20990101T000000Z--main--0000000--0000000000000000.md")
    bad.write_text(text)
    with pytest.raises(MjError) as err:
        records.load(bad)
    assert "mood" in err.value.message and ":3:" in err.value.message


def test_resolver_prefers_same_worktree_then_same_branch_never_other_branch(repo: Path) -> None:
    state = repo / "state"
    assert resolve.resolve(repo, state, "handover") is None
    mine = write(repo, "handover", "mine\n", stamp="2026-09-03T10:00:00Z")
    foreign = write(repo, "handover", "foreign\n", stamp="2026-09-03T11:00:00Z")
    foreign.write_text(foreign.read_text().replace("worktree_id: .", "worktree_id: worktrees/x"))
    assert resolve.resolve(repo, state, "handover").path == mine  # type: ignore[union-attr]
    mine.unlink()
    fallback = resolve.resolve(repo, state, "handover")
    assert fallback is not None and fallback.path == foreign
    assert fallback.label == "different_context"
    git(repo, "checkout", "-q", "-b", "other")
    assert resolve.resolve(repo, state, "handover") is None


def test_equal_stamps_are_ordered_by_ledger_not_mtime(repo: Path) -> None:
    state = repo / "state"
    a = write(repo, "checkpoint", "a\n", stamp="2026-09-03T10:00:00Z")
    b = write(repo, "checkpoint", "b\n", stamp="2026-09-03T10:00:00Z")
    for first, second in ((a, b), (b, a)):
        (state / "ledger.jsonl").write_text(
            f'{{"checkpoint_path": "{first.name}"}}\n{{"checkpoint_path": "{second.name}"}}\n'
        )
        os.utime(first, (2_000_000_000, 2_000_000_000))  # newer mtime must not matter
        assert resolve.resolve(repo, state, "checkpoint").path == second  # type: ignore[union-attr]


def test_advanced_label_after_a_commit(repo: Path) -> None:
    write(repo, "checkpoint", "x\n")
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "b.txt")
    git(repo, "commit", "-q", "--no-gpg-sign", "-m", "two")
    rec = resolve.resolve(repo, repo / "state", "checkpoint")
    assert rec is not None and rec.label == "advanced"


def test_records_of_other_worktrees_are_skipped_unparsed_and_any_spelling_is_found(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = repo / "state"
    mine = write(repo, "handover", "mine\n", stamp="2026-09-03T09:00:00Z")
    for minute in range(10, 40):
        other = write(repo, "handover", "other\n", stamp=f"2026-09-03T10:{minute}:00Z")
        other.write_text(other.read_text().replace("worktree_id: .", "worktree_id: worktrees/b"))
    parsed: list[Path] = []
    load = records.load

    def counting(path: Path) -> tuple[dict, str]:
        parsed.append(path)
        return load(path)

    monkeypatch.setattr(records, "load", counting)
    assert resolve.resolve(repo, state, "handover").path == mine  # type: ignore[union-attr]
    assert len(parsed) == 2  # the newest (the fallback) and mine; 29 others only byte-read
    for spelling in ("'.'", '"."', '"\\x2e"'):
        mine.write_text(mine.read_text().replace("worktree_id: .\n", f"worktree_id: {spelling}\n"))
        found = resolve.resolve(repo, state, "handover")
        assert found is not None and found.path == mine, spelling
        mine.write_text(mine.read_text().replace(f"worktree_id: {spelling}\n", "worktree_id: .\n"))
    legacy = mine.read_text().replace("worktree_id: .\n", "")
    mine.write_text(legacy)  # a record written before worktree_id: its absolute path names it
    found = resolve.resolve(repo, state, "handover")
    assert found is not None and found.path == mine
