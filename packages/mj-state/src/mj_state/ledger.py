"""The ledger: `.ai/local/state/ledger.jsonl`, append-only JSON Lines with a closed vocabulary.

Writers go through `append`: the envelope (ts, event, head, branch, by, session, task_id) is
computed here, never supplied; the event must be declared in `share/events.yaml` with its
required payload keys; the line is one `write()` under an exclusive lock. Readers go through
`read`: the first occurrence of a duplicated key wins, and a malformed line is reported on its
`Line` instead of raised, so a damaged ledger stays readable.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import orjson
from mj_core import atomic
from mj_core import clock
from mj_core import git
from mj_core import jsonl
from mj_core import share
from mj_core import timing
from mj_core import yamlstrict
from mj_core.errors import InternalError
from mj_core.errors import MjError

ENVELOPE = ("ts", "event", "head", "branch", "by", "session", "task_id")
NAME = "ledger.jsonl"
_KEY_END = re.compile(rb'"\s*:')


@dataclass(frozen=True)
class Event:
    name: str
    writer: str
    required: tuple[str, ...]
    optional: tuple[str, ...]


@dataclass(frozen=True)
class Line:
    """One stored line: its number, the object it holds (or None) and why it is malformed."""

    lineno: int
    record: dict[str, Any] | None
    error: str | None
    raw: bytes


@cache
def vocabulary() -> dict[str, Event]:
    """The declared events, from `share/events.yaml`."""
    doc = yamlstrict.parse(share.read_text("events.yaml"), "share/events.yaml")
    events = (doc.data or {}).get("events") or {}
    return {
        name: Event(name, str(spec["writer"]), tuple(spec["required"]), tuple(spec["optional"]))
        for name, spec in events.items()
    }


def path(state_dir: Path) -> Path:
    return state_dir / NAME


def append(
    root: Path,
    state_dir: Path,
    event: str,
    payload: dict[str, Any],
    *,
    task_id: str | None = None,
    where: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Append one event line and return it. `where` may pass identity already computed."""
    line = envelope(root, state_dir, event, payload, task_id=task_id, where=where)
    atomic.append_line(path(state_dir), jsonl.dumps(line))
    return line


def envelope(
    root: Path,
    state_dir: Path,
    event: str,
    payload: dict[str, Any],
    *,
    task_id: str | None = None,
    where: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The full line for `event`: envelope first, then the payload. Tool bugs → 13."""
    _check(event, payload)
    line: dict[str, Any] = {
        "ts": clock.iso(clock.now()),
        "event": event,
        "head": (where or {}).get("head") or git.head(root) or "",
        "branch": (where or {}).get("branch") or git.branch(root) or "DETACHED",
        "by": f"majordomus/{share.version()}",
    }
    session = open_session(root, state_dir)
    if session:
        line["session"] = session
    if task_id:
        line["task_id"] = task_id
    line.update(payload)
    return line


def _check(event: str, payload: dict[str, Any]) -> None:
    spec = vocabulary().get(event)
    if spec is None:
        raise InternalError(f"ledger: event {event!r} is not declared in share/events.yaml")
    for key in payload:
        if key in ENVELOPE:
            raise InternalError(f"ledger: {event} payload key {key!r} collides with the envelope")
    missing = [key for key in spec.required if key not in payload]
    if missing:
        raise InternalError(f"ledger: {event} payload lacks required key(s) {', '.join(missing)}")


def open_session(root: Path, state_dir: Path) -> str | None:
    """The id of the episode open in this checkout for this process, or None.

    The provider session named in the environment, else the `session-current.yaml` pointer; a
    record that cannot be read or belongs to another worktree is no open episode here.
    """
    key = os.environ.get("MAJORDOMUS_PROVIDER_SESSION") or os.environ.get("CLAUDE_CODE_SESSION_ID")
    candidate = state_dir / "sessions-open" / f"{key}.yaml" if key else None
    if candidate is None or not candidate.is_file():
        candidate = state_dir / "session-current.yaml"
        if not candidate.is_file():
            return None
    try:
        data = yamlstrict.load_file(candidate).data
    except (MjError, OSError):  # an unreadable episode is no episode; recover reports it
        return None
    if not isinstance(data, dict) or str(data.get("worktree", root)) != str(root):
        return None
    session = data.get("session_id")
    return session if isinstance(session, str) else None


def read(ledger: Path) -> Iterator[Line]:
    """Every line of `ledger` in order; a missing file is an empty ledger."""
    try:
        handle = ledger.open("rb")
    except FileNotFoundError:
        return
    timing.count("files read")
    with handle:
        for number, raw in enumerate(handle, start=1):
            yield parse_line(number, raw)


def parse_line(number: int, raw: bytes) -> Line:
    text = raw.rstrip(b"\r\n")
    if not raw.endswith(b"\n") and not _is_object(text):
        return Line(number, None, "truncated line (no newline, not a JSON object)", raw)
    record, error = _decode(text)
    if record is None:
        return Line(number, None, error, raw)
    for key in ("ts", "event"):
        if not isinstance(record.get(key), str):
            return Line(number, record, f"no {key!r} string", raw)
    return Line(number, record, None, raw)


def _is_object(text: bytes) -> bool:
    try:
        return isinstance(orjson.loads(text), dict)
    except orjson.JSONDecodeError:
        return False


def _decode(text: bytes) -> tuple[dict[str, Any] | None, str | None]:
    if not text.strip():
        return None, "empty line"
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        return None, f"not JSON ({exc.msg})"
    if not isinstance(value, dict):
        return None, "not a JSON object"
    if len(_KEY_END.findall(text)) != _count_keys(value):
        value = _first_wins(text)  # a duplicated key (or an unusual spelling): decode carefully
    return value, None


def _count_keys(value: Any) -> int:
    if isinstance(value, dict):
        return len(value) + sum(_count_keys(child) for child in value.values())
    if isinstance(value, list):
        return sum(_count_keys(child) for child in value)
    return 0


def _first_wins(text: bytes) -> dict[str, Any]:
    import json

    def first(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, item in pairs:
            out.setdefault(key, item)
        return out

    value: dict[str, Any] = json.loads(text, object_pairs_hook=first)
    return value


def problem(line: Line) -> str | None:
    """Why `line` fails `history --validate`: malformed, or an event no reader knows."""
    if line.error:
        return line.error
    assert line.record is not None
    if line.record["event"] not in vocabulary():
        return f"event {line.record['event']!r} is not declared in share/events.yaml"
    return None


def problems(ledger: Path) -> Iterator[tuple[int, str]]:
    """(line number, reason) for every line `history --validate` reports."""
    for line in read(ledger):
        reason = problem(line)
        if reason:
            yield line.lineno, reason
