from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from mj_core.errors import UsageError
from mj_core.git import questions as git
from mj_core.git import run as gitrun
from mj_core.git import where as gitwhere


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "r"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    (root / "a.txt").write_text("a\n")
    _git(root, "add", "a.txt")
    _git(root, "commit", "-q", "--no-verify", "-m", "one")
    return root


def test_facts(repo: Path) -> None:
    assert git.toplevel(repo / ".git" / "..") == repo.resolve()
    assert git.branch(repo) == "main"
    head = git.head(repo)
    assert head is not None and len(head) == 40
    assert git.common_dir(repo) == (repo / ".git").resolve()
    assert not git.is_dirty(repo)
    (repo / "new dir").mkdir()
    (repo / "new dir" / "b.txt").write_text("b\n")
    assert git.is_dirty(repo)
    assert git.status_paths(repo) == ["new dir/b.txt"]


def test_renames_report_both_sides(repo: Path) -> None:
    _git(repo, "mv", "a.txt", "moved.txt")
    assert sorted(git.status_paths(repo)) == ["a.txt", "moved.txt"]


def test_outside_a_repository_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not inside a git repository"):
        git.toplevel(tmp_path)


def test_hook_environment_is_scrubbed(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    _git(other, "init", "-q", "-b", "elsewhere")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other / ".git" / "index"))
    assert git.branch(repo) == "main"  # a tool run inside a hook still answers for its own repo


def test_worktrees_and_ancestry(repo: Path, tmp_path: Path) -> None:
    first = git.head(repo)
    assert first is not None
    _git(repo, "worktree", "add", "-q", "-b", "side", str(tmp_path / "wt"))
    listed = git.worktrees(repo)
    assert [w["branch"] for w in listed] == ["main", "side"]
    (repo / "a.txt").write_text("changed\n")
    _git(repo, "commit", "-q", "--no-verify", "-am", "two")
    second = git.head(repo)
    assert second is not None
    assert git.is_ancestor(repo, first, second)
    assert not git.is_ancestor(repo, second, first)
    assert git.changed_since(repo, first) == ["a.txt"]


def test_snapshot_answers_where_status_and_changed_at_once(repo: Path) -> None:
    base = git.head(repo)
    assert base is not None
    (repo / "b.txt").write_text("b\n")
    _git(repo, "add", "b.txt")
    _git(repo, "commit", "-q", "--no-verify", "-m", "two")
    (repo / "c.txt").write_text("c\n")
    here, status, changed = gitwhere.snapshot(repo, base)
    assert here == gitwhere.where(repo)
    assert status == git.status_paths(repo) == ["c.txt"]
    assert changed == git.changed_since(repo, base) == ["b.txt"]
    assert gitwhere.snapshot(repo, None)[2] == []
    (repo / "c.txt").unlink()
    assert gitwhere.snapshot(repo, "")[1:] == ([], []) and not git.is_dirty(repo)


def test_a_question_asked_ahead_is_answered_once_from_its_process(repo: Path) -> None:
    from mj_core import timing

    git.ahead([(("rev-parse", "HEAD"), repo), (("branch", "--show-current"), repo)])
    try:
        counted = timing.counters().get("git", 0)
        _git(repo, "checkout", "-q", "-b", "later")  # the answers were begun before this
        assert git.out("branch", "--show-current", cwd=repo) == "main"
        assert git.out("rev-parse", "HEAD", cwd=repo) == git.head(repo)
        assert timing.counters().get("git", 0) == counted + 1  # only `head` asked git again
        assert git.out("branch", "--show-current", cwd=repo) == "later"  # asked again: git
    finally:
        git.settle()


def test_settle_forgets_what_nobody_asked(repo: Path) -> None:
    git.ahead([(("branch", "--show-current"), repo)])
    git.settle()
    _git(repo, "checkout", "-q", "-b", "other")
    assert git.out("branch", "--show-current", cwd=repo) == "other"


def test_the_git_directories_are_asked_once_and_seeded_by_where(repo: Path) -> None:
    found = git.dirs(repo)
    assert found == (str((repo / ".git").resolve()), str((repo / ".git").resolve()))
    assert git.git_dir(repo) == git.common_dir(repo) == (repo / ".git").resolve()
    assert git.dirs(repo / "absent") is None


def test_run_many_takes_what_was_asked_ahead_and_asks_the_rest_together(repo: Path) -> None:
    from mj_core import timing

    git.ahead([(("rev-parse", "HEAD"), repo)])
    try:
        counted = timing.counters().get("git", 0)
        (head, _, _), (branch, name, _) = git.run_many(
            [(("rev-parse", "HEAD"), repo), (("branch", "--show-current"), repo)]
        )
        assert head == 0 and branch == 0 and name.strip() == "main"
        assert timing.counters().get("git", 0) == counted + 1
    finally:
        git.settle()


def test_an_answer_begun_ahead_for_two_readers_is_given_twice_then_asked_again(
    repo: Path,
) -> None:
    """`times=2`: the two readers of one run (a briefing's facts, then the episode it opens)
    share one process; a third reader asks git, and sees what git says then."""
    from mj_core import timing

    git.ahead([(("branch", "--show-current"), repo)], times=2)
    try:
        counted = timing.counters().get("git", 0)
        _git(repo, "checkout", "-q", "-b", "later")  # the answer was begun before this
        assert git.out("branch", "--show-current", cwd=repo) == "main"
        assert git.out("branch", "--show-current", cwd=repo) == "main"
        assert timing.counters().get("git", 0) == counted  # both from the one process
        assert git.out("branch", "--show-current", cwd=repo) == "later"  # asked again
        assert timing.counters().get("git", 0) == counted + 1
    finally:
        git.settle()


def test_a_snapshot_takes_what_was_begun_ahead_and_starts_the_rest(repo: Path) -> None:
    from mj_core import timing

    base = git.head(repo)
    (repo / "c.txt").write_text("c\n")
    git.ahead([(gitwhere.WHERE_ARGS, repo), (git.STATUS_ARGS, repo)])
    try:
        counted = timing.counters().get("git", 0)
        with gitwhere.Snapshot(repo, base) as pending:
            here, status, changed = pending.result()
        assert timing.counters().get("git", 0) == counted + 1  # only the diff was started
        assert (here, status, changed) == (gitwhere.where(repo), ["c.txt"], [])
        assert not gitrun._AHEAD and not gitrun._ANSWERS  # each answer given once
    finally:
        git.settle()


def test_a_question_begun_ahead_and_settled_before_its_reader_is_asked_again(
    repo: Path,
) -> None:
    """A reader that began while an answer was pending, and finds it settled (forgotten) by
    the time it waits, asks git itself: never a missing answer."""
    pending = git.begin([(("branch", "--show-current"), repo)])  # nothing begun: asked now
    git.ahead([(("rev-parse", "HEAD"), repo)])
    late = git.begin([(("rev-parse", "HEAD"), repo), (("branch", "--show-current"), repo)])
    git.settle()
    (code, head, _), (_, branch, _) = late.wait()
    assert code == 0 and head.strip() == git.head(repo) and branch.strip() == "main"
    assert [a[1].strip() for a in pending.wait()] == ["main"]


def test_a_question_begun_again_is_asked_afresh_and_the_earlier_process_reaped(
    repo: Path,
) -> None:
    """Beginning a question that is already begun (by another reader, before a write) drops
    the earlier answer: the readers get what git says after the write, and the earlier
    process, which shared a round with another question, still answers that one."""
    git.ahead([(("branch", "--show-current"), repo), (("rev-parse", "HEAD"), repo)])
    try:
        _git(repo, "checkout", "-q", "-b", "later")
        git.ahead([(("branch", "--show-current"), repo)], times=2)
        assert git.out("branch", "--show-current", cwd=repo) == "later"
        assert git.out("branch", "--show-current", cwd=repo) == "later"
        assert git.out("rev-parse", "HEAD", cwd=repo) == git.head(repo)
        assert not gitrun._AHEAD and not gitrun._ANSWERS and not gitrun._TIMES
    finally:
        git.settle()
