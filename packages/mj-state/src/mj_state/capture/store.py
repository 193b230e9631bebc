"""What `capture render`, `capture reconcile` and `capture prune` (each facts | judge | writer:
`mj_state.capture.render`, `.reconcile`, `.prune`) read and write: upkeep of the prompt archive.

Each archived prompt is a record (`<stem>.json`, `majordomus.capture/v1`) and its rendering
(`<stem>.md`), both 0600 under `.ai/local/prompts/`. The record is what counts; the rest is
derived from it or from what the checkout still holds:
- render rebuilds a missing rendering from its record (`--force`: every rendering). A record
  is never written by it.
- reconcile links a record captured with no open episode (`episode_link: orphan`) to the
  episode its provider session belongs to, from what survives: an episode's working context
  (`session-contexts/`, link `session-context`), or a `session.closed` ledger line whose
  record names the provider session (link `ledger`). Two episodes for one provider session is
  ambiguity: refused, the record left as it is. A record with no provider session
  (`unlinked-legacy`) stays so: no time window is taken for evidence.
- prune applies `prompts.retention_max_days`, then `prompts.retention_max_bytes` (the prompt
  texts' UTF-8 bytes), oldest first: a pruned record keeps its fields, loses its text and
  gains a `tombstone` (when, why, how many bytes); its rendering is rebuilt to match.
`--dry-run` (reconcile, prune) names what would change and writes nothing. A file that is not
a capture record is a FAIL naming it (10); the others are still done.
"""

from __future__ import annotations

import json
import os

from mj_core.errors import MjError
from mj_policy.layer.loader import load

from mj_state.capture import archive as capture
from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

DEFAULT_DAYS = 90  # prompts.retention_max_days when the policy names none
DEFAULT_BYTES = 10 * 1024 * 1024  # prompts.retention_max_bytes when the policy names none
_MAX_RECORD = 4 << 20  # a record is at most a payload's size, with its escapes


def by_path(root: Path) -> dict[str, Record]:
    """Every record of the archive that reads, by its repository-relative path: what a writer
    rewrites once it has judged again."""
    return {path.relative_to(root).as_posix(): record
            for path, record, _ in records(root) if record is not None}  # fmt: skip


def records(root: Path) -> Iterator[tuple[Path, Record | None, str]]:
    """(path, record or None, why not) of every `.json` file of the archive, oldest first (a
    record's name begins with its capture moment)."""
    directory = capture.archive_dir(root)
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".json"))
    except FileNotFoundError:
        return
    for name in names:
        path = directory / name
        try:
            with path.open("rb") as handle:
                data = handle.read(_MAX_RECORD + 1)
            if len(data) > _MAX_RECORD:
                raise ValueError(f"over {_MAX_RECORD} bytes")
            value = json.loads(data)
        except (OSError, ValueError) as exc:
            yield path, None, f"not a capture record ({exc})"
            continue
        if type(value) is not dict or value.get("schema") != capture.SCHEMA:
            yield path, None, f"not a capture record (schema is not {capture.SCHEMA})"
        elif not isinstance(value.get("captured_at"), str):
            yield path, None, "not a capture record (no captured_at)"
        else:
            yield path, value, ""


def rewrite(root: Path, path: Path, record: Record) -> None:
    from mj_core.write import atomic

    data = (json.dumps(record, indent=2, ensure_ascii=True) + "\n").encode()
    atomic.create(path, data, mode=0o600, replace=True, root=root)
    atomic.create(
        path.with_suffix(".md"), capture.rendering(record), mode=0o600, replace=True, root=root
    )


def evidence(root: Path) -> dict[str, set[tuple[str, str]]]:
    """provider session → {(episode id, link)} from working contexts and closed records the
    ledger's `session.closed` lines name."""
    from mj_core.yaml import strict as yamlstrict

    found: dict[str, set[tuple[str, str]]] = {}
    directory = sessions.contexts_dir(root)
    for name in sorted(os.listdir(directory)) if directory.is_dir() else []:
        if not name.endswith(".md"):
            continue
        try:
            text = (directory / name).read_text(encoding="utf-8")
            doc, _, _ = yamlstrict.split_front_matter(text, name)
        except (OSError, UnicodeError, MjError):  # unreadable: not evidence
            continue
        front = doc.data if isinstance(doc.data, dict) else {}
        key, episode = front.get("provider_session"), front.get("session_id")
        if isinstance(key, str) and isinstance(episode, str):
            found.setdefault(key, set()).add((episode, "session-context"))
    for episode, record_path in _closed_lines(root):
        try:
            front, _ = sessions.load_closed(root / record_path, root)
        except (OSError, UnicodeError, MjError):  # a record gone or damaged is no evidence
            continue
        key = front.get("provider_session")
        if isinstance(key, str) and front.get("session_id") == episode:
            found.setdefault(key, set()).add((episode, "ledger"))
    return found


def _closed_lines(root: Path) -> Iterator[tuple[str, str]]:
    from mj_state.ledger import store as ledger

    target = root / ".ai" / "local" / "state" / "ledger.jsonl"
    for number, text, complete in ledger.newest_first(target):
        if b"session.closed" not in text:
            continue
        value = ledger.parse(number, text, complete=complete).record
        if type(value) is dict and value.get("event") == "session.closed":
            episode, where = value.get("session"), value.get("session_path")
            if isinstance(episode, str) and isinstance(where, str) and _a_record_path(where):
                yield episode, where


def _a_record_path(where: str) -> bool:
    """A ledger line's `session_path` names a closed record, or nothing is read from it."""
    parts = where.split("/")
    return len(parts) == 4 and parts[:3] == [".ai", "repo", "sessions"] and parts[3].endswith(".md")


def limits(root: Path) -> tuple[int, int]:
    section = load(root).policy.data.get("prompts") or {}
    days = section.get("retention_max_days", DEFAULT_DAYS)
    most = section.get("retention_max_bytes", DEFAULT_BYTES)
    return int(days), int(most)
