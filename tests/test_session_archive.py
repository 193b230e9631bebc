"""`majordomus session archive` (SCHEMAS): only on request and only when the policy sets
`session.archive: true`, the oldest closed records beyond `session.retention_max_files` move
into the section's `archive/` with one `session.archived` ledger line; nothing is deleted, a
name already archived refuses the run before anything moves, `--dry-run` writes nothing."""

from __future__ import annotations

import json
import re

from conftest import Repo

SESSIONS = ".ai/repo/sessions"
LEDGER = ".ai/local/state/ledger.jsonl"


def _policy(repo: Repo, block: str) -> None:
    path = repo.root / ".ai/repo/policy.yaml"
    path.write_text(path.read_text() + block)


def _closed(repo: Repo, count: int) -> list[str]:
    ids = []
    for _ in range(count):
        opened = repo.mj("session", "start")
        assert opened.code == 0, opened
        ids.append(opened.out.split()[1])
        assert repo.mj("session", "close").code == 0
    return ids


def _names(repo: Repo, where: str = SESSIONS) -> list[str]:
    return sorted(p.name for p in (repo.root / where).glob("*.md"))


def test_archive_moves_the_oldest_beyond_the_cap_and_says_so(layer_repo: Repo) -> None:
    ids = _closed(layer_repo, 4)
    before = _names(layer_repo)
    assert len(before) == 4
    refused = layer_repo.mj("session", "archive")
    assert refused.code == 15 and "session.archive: true" in refused.err, refused
    assert _names(layer_repo) == before
    _policy(layer_repo, "session:\n  archive: true\n  retention_max_files: 2\n")
    planned = layer_repo.mj("session", "archive", "--dry-run")
    assert planned.code == 0 and "would move 2 record(s)" in planned.out, planned
    assert _names(layer_repo) == before
    ledger = (layer_repo.root / LEDGER).read_text()
    done = layer_repo.mj("session", "archive")
    assert done.code == 0, done
    assert f"moved 2 record(s) to {SESSIONS}/archive/, 2 kept" in done.out, done.out
    assert _names(layer_repo) == before[2:]
    assert _names(layer_repo, f"{SESSIONS}/archive") == before[:2]
    stamps = [name.split("--", 1)[0] for name in before]  # the close time leads each name
    assert max(stamps[:2]) <= min(stamps[2:])  # the oldest moved (one second ties by id)
    assert all(any(f"--{ident}--" in name for ident in ids) for name in before)
    added = (layer_repo.root / LEDGER).read_text()[len(ledger) :].splitlines()
    assert [json.loads(x)["event"] for x in added] == ["session.archived"]
    line = json.loads(added[0])
    assert (line["moved"], line["kept"], line["archive"]) == (2, 2, f"{SESSIONS}/archive")
    again = layer_repo.mj("session", "archive")
    assert again.code == 0 and "nothing to move" in again.out, again
    assert layer_repo.mj("history", "--validate").code == 0
    moved = [i for i in ids if any(f"--{i}--" in name for name in before[:2])]
    kept = [i for i in ids if i not in moved]
    listed = layer_repo.mj("session", "list")
    assert listed.code == 0 and moved[0] not in listed.out and kept[-1] in listed.out
    proposed = layer_repo.mj("adr", "propose", "From an archived episode", "--from",
                             f"session:{moved[0]}")  # fmt: skip
    assert proposed.code == 0, proposed  # an archived episode still resolves


def test_a_name_already_archived_refuses_before_anything_moves(layer_repo: Repo) -> None:
    _closed(layer_repo, 3)
    _policy(layer_repo, "session:\n  archive: true\n  retention_max_files: 1\n")
    before = _names(layer_repo)
    folder = layer_repo.root / SESSIONS / "archive"
    folder.mkdir()
    (folder / before[1]).write_text("kept apart\n")
    ledger = (layer_repo.root / LEDGER).read_bytes()
    result = layer_repo.mj("session", "archive")
    assert result.code == 15 and result.err.count("\n") == 1, result
    assert re.search(r"already archived; nothing was moved", result.err)
    assert _names(layer_repo) == before and (folder / before[1]).read_text() == "kept apart\n"
    assert (layer_repo.root / LEDGER).read_bytes() == ledger


def test_the_policy_block_is_held_to_its_schema(layer_repo: Repo) -> None:
    _policy(layer_repo, "session:\n  archive: yes-please\n")
    assert layer_repo.mj("session", "archive").code == 10
