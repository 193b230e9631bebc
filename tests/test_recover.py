"""`majordomus recover` (CLI-REFERENCE §2.3): stranded episodes, duplicates, stray temporaries.

`--check` and `status` compute the same plan and write nothing; a real run writes the record
before it removes the open file; what must not be touched is not.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from conftest import Repo

STATE = ".ai/local/state"


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted((root / ".ai").rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def start(repo: Repo, *args: str) -> str:
    result = repo.mj("session", "start", *args)
    assert result.code == 0, result
    return result.out.split()[1]


def test_check_and_status_write_nothing_and_all_closes_the_stranded(layer_repo: Repo) -> None:
    session = start(layer_repo)
    start(layer_repo, "--provider", "claude-code", "--provider-session", "later")  # the pointer's
    time.sleep(1.1)
    before = tree(layer_repo.root)
    for args in (("recover",), ("recover", "all", "--check", "--older-than", "0m")):
        result = layer_repo.mj(*args, "--older-than", "0m") if args == ("recover",) else None
        result = result or layer_repo.mj(*args)
        assert result.code == 0, result
        assert f"stranded: {session} key=hand" in result.out and "(ledger, " in result.out
        assert result.out.rstrip().endswith("nothing was written (run: majordomus recover all)"), (
            result
        )
        assert "check: 1 action(s) would be taken" in result.out
        assert tree(layer_repo.root) == before
    done = layer_repo.mj("recover", "all", "--older-than", "0m")
    assert done.code == 0 and "→ close (done)" in done.out, done
    (record,) = (layer_repo.root / ".ai/repo/sessions").glob("*.md")
    text = record.read_text()
    assert "outcome: interrupted" in text and "commits: []" in text
    assert "changed_files: []" in text and "\nhead:" not in text and "\nworking_tree:" not in text
    assert not (layer_repo.root / STATE / "sessions-open/hand.yaml").exists()
    assert (layer_repo.root / STATE / "sessions-open/later.yaml").exists()  # this process's
    last = json.loads((layer_repo.root / STATE / "ledger.jsonl").read_text().splitlines()[-1])
    assert last["event"] == "session.recovered" and last["action"] == "closed-stranded"
    assert "session" not in last  # not stamped with the episode it acted on


def test_a_live_episode_and_this_process_episode_are_left(layer_repo: Repo) -> None:
    start(layer_repo)
    start(layer_repo, "--provider", "claude-code", "--provider-session", "mine")
    live = layer_repo.mj("recover", "all")
    assert live.code == 0 and "live:" in live.out and "(done)" not in live.out
    time.sleep(1.1)
    env = {**layer_repo.env, "CLAUDE_CODE_SESSION_ID": "mine"}
    inside = Repo(layer_repo.root, env).mj("recover", "all", "--older-than", "0m")
    assert inside.code == 0, inside
    assert "the episode this process belongs to" in inside.out
    assert (layer_repo.root / STATE / "sessions-open/mine.yaml").exists()
    assert not (layer_repo.root / STATE / "sessions-open/hand.yaml").exists()


def test_the_episode_the_pointer_names_is_this_process_and_is_left(layer_repo: Repo) -> None:
    """A process that names no provider session belongs to the episode the pointer names
    (`state/session-current.yaml`): recover leaves it, however old, as it leaves the one the
    environment names; `session close` is what ends it."""
    session = start(layer_repo)
    time.sleep(1.1)
    before = tree(layer_repo.root)
    result = layer_repo.mj("recover", "all", "--older-than", "0m")
    assert result.code == 0, result
    assert (
        f"{session} key=hand" in result.out and "the episode this process belongs to" in result.out
    )
    assert "(done)" not in result.out and tree(layer_repo.root) == before
    assert (layer_repo.root / STATE / "sessions-open/hand.yaml").exists()
    assert list((layer_repo.root / ".ai/repo/sessions").glob("*.md")) == []


def test_other_worktrees_and_unreadable_episodes_are_skipped(layer_repo: Repo) -> None:
    start(layer_repo)
    open_dir = layer_repo.root / STATE / "sessions-open"
    text = (open_dir / "hand.yaml").read_text()
    (open_dir / "other.yaml").write_text(
        text.replace(f"worktree: {layer_repo.root}", "worktree: /elsewhere")
    )
    (open_dir / "broken.yaml").write_text("session_id: [\n")
    time.sleep(1.1)
    result = layer_repo.mj("recover", "all", "--older-than", "0m")
    assert result.code == 0, result
    assert "skipped:" in result.out and "another worktree (/elsewhere)" in result.out
    assert "unreadable" in result.out
    assert (open_dir / "other.yaml").exists() and (open_dir / "broken.yaml").exists()


def test_a_bad_duration_is_a_usage_error(layer_repo: Repo) -> None:
    result = layer_repo.mj("recover", "all", "--older-than", "soon")
    assert result.code == 2 and result.err.count("\n") == 1, result
    unknown = layer_repo.mj("recover", "everything")
    assert unknown.code == 2, unknown


def test_duplicates_fold_into_the_oldest_and_disagreeing_ones_are_reported(
    layer_repo: Repo,
) -> None:
    session = start(layer_repo)
    assert layer_repo.mj("session", "close").code == 0
    sessions = layer_repo.root / ".ai/repo/sessions"
    (original,) = sessions.glob("*.md")
    copy = sessions / original.name.replace(original.name[:16], "20991231T000000Z")
    text = original.read_text()
    copy.write_text(text.replace("decisions: []", "decisions:\n  - from the copy"))
    copy.chmod(0o600)
    checked = layer_repo.mj("recover", "records", "--check")
    assert checked.code == 0 and f"duplicate: {session}" in checked.out and copy.exists()
    folded = layer_repo.mj("recover", "records")
    assert folded.code == 0 and "→ fold (done)" in folded.out, folded
    assert [p.name for p in sessions.glob("*.md")] == [original.name]
    assert "- from the copy" in original.read_text()
    assert (layer_repo.root / STATE / "archive/recovered" / copy.name).exists()
    other = sessions / original.name.replace(original.name[:16], "20991231T000001Z")
    other.write_text(text.replace("branch: main", "branch: elsewhere"))
    reported = layer_repo.mj("recover", "records")
    assert reported.code == 0 and f"disagreeing: {session}" in reported.out
    assert other.exists() and original.exists()


def test_stray_temporaries_are_judged_by_age_then_content(layer_repo: Repo) -> None:
    start(layer_repo)
    assert layer_repo.mj("session", "close").code == 0
    (record,) = (layer_repo.root / ".ai/repo/sessions").glob("*.md")
    tmp = layer_repo.root / ".ai/local/tmp"
    tmp.mkdir(exist_ok=True)
    old = time.time() - 3600
    published = tmp / ".mj-tmp-published"
    shutil.copy(record, published)
    empty = tmp / ".mj-tmp-empty"
    empty.write_text("")
    other = tmp / ".mj-tmp-other"
    other.write_text("something else\n")
    for path in (published, empty, other):
        os.utime(path, (old, old))
    young = tmp / ".mj-tmp-young"
    young.write_text("")
    result = layer_repo.mj("recover", "orphans")
    assert result.code == 0, result
    assert not published.exists() and not empty.exists()
    assert other.exists() and young.exists() and tmp.is_dir()
    assert "young:" in result.out and "not a session record" in result.out
    only = tmp / ".mj-tmp-only"
    only.write_text(record.read_text().replace(record.name.split("--")[1], "s-20990101000000-beef"))
    os.utime(only, (old, old))
    again = layer_repo.mj("recover", "orphans")
    assert again.code == 0 and "→ publish (done)" in again.out, again
    assert not only.exists()
    names = [p.name for p in (layer_repo.root / ".ai/repo/sessions").glob("*.md")]
    assert any("s-20990101000000-beef" in name for name in names)


def test_without_a_layer_recover_and_session_are_missing_artifacts(git_repo: Repo) -> None:
    for args in (("recover",), ("recover", "all"), ("session", "start"), ("session", "close")):
        result = git_repo.mj(*args)
        assert result.code == 12 and result.err.count("\n") == 1, (args, result)
    outside = git_repo.run("recover", cwd=git_repo.root.parent)
    assert outside.code == 2, outside
