"""`session close` and `session archive` are facts | judge | writer: `mj-state
session-close-facts | session-close-judge | session-close-write | mj-knowledge derive-facts |
derive-judge | derive-write | mj-state log`, and `mj-state session-archive-facts |
session-archive-judge | session-archive-write`.

The judges read their facts alone. The writers gather and judge again, so a close whose episode
id, summary or outcome was edited, one judged in another checkout, or a replayed one writes
nothing (15, or the command's own refusal), and an archive verdict naming other records moves
nothing.
"""

from __future__ import annotations

from conftest import Repo
from conftest import files_under
from conftest import forged
from conftest import judged
from test_session_archive import _closed
from test_session_archive import _names
from test_session_archive import _policy

STATE = ".ai/local/state"


def _stream(repo: Repo, stage: str, *args: str, stdin: str | None = None) -> list:
    return judged(repo, "mj-state", f"{stage}-facts", f"{stage}-judge", *args, stdin=stdin)


def test_the_close_stages_write_what_the_command_writes(layer_repo: Repo) -> None:
    assert layer_repo.mj("session", "start").code == 0
    printed = layer_repo.mj("session", "close", "--pipeline").out.strip()
    assert printed == (
        "mj-state session-close-facts --outcome closed --if-none refuse"
        " | mj-state session-close-judge | mj-state session-close-write"
        " | mj-knowledge derive-facts | mj-knowledge derive-judge | mj-knowledge derive-write"
        " | mj-state log"
    )
    done = layer_repo.shell(f"printf 'Closed by the stages.\\n' | {printed}")
    assert done.code == 0, done
    (record,) = (layer_repo.root / ".ai/repo/sessions").glob("*.md")
    assert record.read_text().endswith("Closed by the stages.\n")
    assert not list((layer_repo.root / STATE / "sessions-open").glob("*.yaml"))
    assert '"event":"session.closed"' in (layer_repo.root / STATE / "ledger.jsonl").read_text()


def test_an_edited_or_replayed_close_writes_nothing(layer_repo: Repo) -> None:
    assert layer_repo.mj("session", "start").code == 0
    stream = _stream(layer_repo, "session-close", stdin="fine\n")
    before = files_under(layer_repo, STATE, ".ai/repo/sessions")
    edits = [
        ({"session_id": "s-20260101000000-abcd"}, 15),
        ({"summary": "fine\nhead: 0123456"}, 10),
        ({"key": "someone-else"}, 12),
        ({"key": "../../.ai/local/state/sessions-open/hand"}, 15),
        ({"outcome": "finished"}, 10),
    ]
    for changed, code in edits:
        result = layer_repo.run("mj-state", "session-close-write", stdin=forged(stream, **changed))
        assert result.code == code, (changed, result)
        assert files_under(layer_repo, STATE, ".ai/repo/sessions") == before
    done = layer_repo.run("mj-state", "session-close-write", stdin=forged(stream))
    assert done.code == 0, done
    after = files_under(layer_repo, STATE, ".ai/repo/sessions")
    replay = layer_repo.run("mj-state", "session-close-write", stdin=forged(stream))
    assert replay.code == 12 and "no open session" in replay.err, replay
    assert files_under(layer_repo, STATE, ".ai/repo/sessions") == after


def test_an_archive_verdict_naming_other_records_moves_nothing(layer_repo: Repo) -> None:
    _closed(layer_repo, 3)
    _policy(layer_repo, "session:\n  archive: true\n  retention_max_files: 1\n")
    stream = _stream(layer_repo, "session-archive")
    (verdict,) = [r for r in stream if r.get("kind") == "verdict"]
    moved = list(verdict["moved"])  # type: ignore[call-overload]
    before = _names(layer_repo)
    for changed in ({"moved": moved[:1]}, {"moved": [*moved, "x.md"]}, {"count": 2}):
        result = layer_repo.run("mj-state", "session-archive-write",
                                stdin=forged(stream, **changed))  # fmt: skip
        assert result.code in (10, 15), (changed, result)
        assert _names(layer_repo) == before
    assert layer_repo.run("mj-state", "session-archive-write", stdin=forged(stream)).code == 0
    assert len(_names(layer_repo)) == 1
    replay = layer_repo.run("mj-state", "session-archive-write", stdin=forged(stream))
    assert replay.code == 15 and "nothing was moved" in replay.err, replay


def test_the_judges_without_their_facts_are_12(layer_repo: Repo) -> None:
    other = layer_repo.run("mj-state", "checkpoint-facts", stdin="x\n")
    for stage in ("session-close", "session-archive"):
        result = layer_repo.run("mj-state", f"{stage}-judge", stdin=other.out)
        assert result.code == 12 and f"{stage}-facts" in result.err, result
