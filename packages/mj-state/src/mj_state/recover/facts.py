"""`mj-state recover-facts [status|episodes|records|orphans|all] [--check] [--older-than D]`:
what `mj-state recover-judge` judges, as one `recover` fact.

For each store the scope names, as it stands: the episodes open here (each one's key, its
record as read, or why it cannot be read, the newest ledger line stamped with it and the lists
and task those lines give), the episode this process belongs to, the closed records by session
id, a pointer naming no open episode; every session id with more than one closed record (each
copy's front matter and body, or that one cannot be read) and each gap between the decision
log or the question file and the ledger (`mj_state.records.pairs`); each temporary under
`.ai/local/tmp/` (its age, and what an old one holds). The options as given, the policy's
`session.stranded_after` and the clock. Nothing is judged here.
"""

from __future__ import annotations

import os
import time

from mj_core import clock
from mj_core.errors import MjError
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.session import envelope
from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

SCOPES = ("episodes", "records", "orphans")
STALE_TEMP = 900  # what mj_core.write.temp_files calls a crashed writer's leftover


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    yield gather(layer, str(options.what), options.older_than, check=bool(options.check))


def gather(layer: Layer, what: str, older_than: str | None, *, check: bool) -> Record:
    """The `recover` fact (the writer gathers it again, the same way, before it acts)."""
    scopes = SCOPES if what in ("status", "all") else (what,)
    configured = layer.policy.data.get("session")
    after = configured.get("stranded_after") if isinstance(configured, dict) else None
    recorded = sessions.recorded_ids(layer.root)
    return {
        "kind": "fact",
        "fact": "recover",
        "what": what,
        "check": check,
        "older_than": older_than,
        "stranded_after": None if after is None else str(after),
        "now": clock.now(),
        "here": str(layer.root),
        "state": layer.relative(layer.state),
        "mine": sessions.here_key(layer.state),
        "recorded": recorded,
        "episodes": _episodes(layer) if "episodes" in scopes else None,
        "dangling": _dangling(layer) if "episodes" in scopes else None,
        "duplicates": _duplicates(layer, recorded) if "records" in scopes else None,
        "gaps": _gaps(layer) if "records" in scopes else None,
        "stale": STALE_TEMP,
        "temporaries": _temporaries(layer, recorded) if "orphans" in scopes else None,
    }


def _episodes(layer: Layer) -> list[Record]:
    root, state = layer.root, layer.state
    out: list[Record] = []
    for key in sessions.open_keys(state):
        shown = sessions.open_path(state, key).relative_to(root).as_posix()
        try:
            data = sessions.read_open(state, key, root)
        except MjError as exc:
            out.append({"key": key, "shown": shown, "problem": exc.message})
            continue
        lines = envelope.stamped(state, str(data["session_id"]))
        out.append({
            "key": key, "shown": shown, "data": data, "last_seen": envelope.last_seen(lines),
            "lists": envelope.lists(lines), "started": envelope.started(lines),
        })  # fmt: skip
    return out


def _dangling(layer: Layer) -> str | None:
    pointer = layer.state / sessions.POINTER
    if not os.path.islink(pointer) or sessions.pointed(layer.state) is not None:
        return None
    return os.readlink(pointer)


def _duplicates(layer: Layer, recorded: dict[str, list[str]]) -> list[Record]:
    out: list[Record] = []
    for session_id, names in sorted(recorded.items()):
        if len(names) < 2:
            continue
        directory = sessions.closed_dir(layer.root)
        copies: list[Record] = []
        for name in names:
            try:
                front, body = sessions.load_closed(directory / name, layer.root)
            except MjError:  # a copy that cannot be read: the judge skips the id
                break
            copies.append({"name": name, "front": front, "body": body})
        else:
            out.append({"session_id": session_id, "names": names, "copies": copies})
            continue
        out.append({"session_id": session_id, "names": names, "copies": None})
    return out


def _gaps(layer: Layer) -> list[Record]:
    from mj_state.recover import logs

    return [
        {"file": gap.file, "where": gap.where, "message": gap.message, "action": gap.action,
         "key": list(gap.key)}
        for gap in logs.gaps(layer)
    ]  # fmt: skip


def _temporaries(layer: Layer, recorded: dict[str, list[str]]) -> list[Record]:
    from mj_core.write.temp_files import PREFIX

    tmp = layer.local / "tmp"
    try:
        names = sorted(os.listdir(tmp))
    except FileNotFoundError:
        return []
    now, out = time.time(), []
    for name in names:
        if not name.startswith(PREFIX):
            continue
        path = tmp / name
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            continue
        found: Record = {"name": name, "shown": layer.relative(path),
                         "age": int(now - info.st_mtime)}  # fmt: skip
        if found["age"] < STALE_TEMP:  # a live writer's: not read
            out.append(found)
            continue
        try:
            data = path.read_bytes()
        except OSError as exc:
            out.append({**found, "unreadable": exc.strerror})
            continue
        text = data.decode("utf-8", errors="replace")
        session_id = None if not data.strip() else _session_of(text)
        held = session_id is not None and session_id not in recorded
        out.append({**found, "empty": not data.strip(), "session_id": session_id,
                    "text": text if held else None})  # fmt: skip
    return out


def _session_of(text: str) -> str | None:
    """The session id a temporary holding a session record names, else None."""
    if not text.startswith("---\nschema: session/v1\n"):
        return None
    for line in text.split("\n")[1:40]:
        if line.startswith("session_id: "):
            value = line.removeprefix("session_id: ").strip().strip('"')
            return value if sessions.is_session_id(value) else None
    return None


STAGES = {"recover-facts": Stage(run)}
