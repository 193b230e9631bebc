"""`recover records` and `recover orphans`: duplicate session records and stray temporaries.

Duplicates (two closed records of one session id) fold into the oldest by `created_at` when
their identity and times agree: the oldest is rewritten with every list united, and each other
copy moves (link, then unlink) to `state/archive/recovered/`. When they disagree, they are
reported and left. A stray temporary (`.ai/local/tmp/.mj-tmp-*`) is judged by its age first.
"""

from __future__ import annotations

import contextlib
import os
import time

from mj_core.errors import MjError
from mj_core.write.temp_files import PREFIX

from mj_state.ledger import store as ledger
from mj_state.session import envelope
from mj_state.session import record as sessionrecord
from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

_AGREE = ("repository_id", "worktree_id", "branch", "start_head", "started_at", "session_id")


def _item(subject: str, state: str, action: str, evidence: str, path: str | None) -> Record:
    return {
        "kind": "recovery",
        "subject": subject,
        "state": state,
        "action": action,
        "done": False,
        "evidence": evidence,
        "path": path,
    }


def plan(layer: Layer) -> Iterator[Record]:
    root = layer.root
    for session_id, names in sorted(sessions.recorded_ids(root).items()):
        if len(names) < 2:
            continue
        loaded: list[tuple[str, str, Record, str]] = []
        for name in names:
            try:
                front, body = sessions.load_closed(sessions.closed_dir(root) / name, root)
            except MjError:
                loaded = []
                break
            loaded.append((str(front["created_at"]), name, front, body))
        if not loaded:
            yield _item(session_id, "skipped", "none", "a copy cannot be read", None)
            continue
        loaded.sort(key=lambda entry: (entry[0], entry[1]))
        first = loaded[0][2]
        if any(any(f.get(k) != first.get(k) for k in _AGREE) for _, _, f, _ in loaded[1:]):
            evidence = f"{len(names)} records disagree on identity or times: {', '.join(names)}"
            yield _item(session_id, "disagreeing", "report", evidence, None)
            continue
        oldest = (sessions.closed_dir(root) / loaded[0][1]).relative_to(root).as_posix()
        evidence = f"{len(names)} records; fold into the oldest, {loaded[0][1]}"
        item = _item(session_id, "duplicate", "fold", evidence, oldest)
        yield {**item, "_loaded": loaded}


def fold(layer: Layer, item: Record) -> None:
    from mj_core.write import atomic

    root = layer.root
    loaded = item["_loaded"]
    _, oldest_name, front, body = loaded[0]
    united = dict(front)
    for name in (*envelope.LISTS, "commits", "changed_files"):
        merged: list[str] = []
        for _, _, other, _ in loaded:
            merged += [v for v in other.get(name) or [] if v not in merged]
        united[name] = merged
    target = sessions.closed_dir(root) / oldest_name
    atomic.create(target, sessionrecord.render(united, body), mode=sessions.MODE, replace=True)
    archive = layer.state / "archive" / "recovered"
    atomic.make_dirs(archive, root=root)
    for _, name, _, _ in loaded[1:]:
        source = sessions.closed_dir(root) / name
        with contextlib.suppress(FileExistsError):
            os.link(source, archive / name)
        os.unlink(source)
        shown = (archive / name).relative_to(root).as_posix()
        payload = {"action": "folded", "session_path": shown}
        ledger.append(root, layer.state, "session.recovered", payload, session=_own(layer))


def _own(layer: Layer) -> str:
    return sessions.own(layer.state, layer.root)


def orphans(layer: Layer, stale: int) -> Iterator[Record]:
    tmp = layer.local / "tmp"
    try:
        names = sorted(os.listdir(tmp))
    except FileNotFoundError:
        return
    now = time.time()
    recorded = sessions.recorded_ids(layer.root)
    for name in names:
        if not name.startswith(PREFIX):
            continue
        path = tmp / name
        shown = path.relative_to(layer.root).as_posix()
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            continue
        age = int(now - info.st_mtime)
        if age < stale:
            yield _item(name, "young", "none", f"written {age}s ago: a live writer's", shown)
            continue
        yield _judged(path, shown, name, recorded)


def _judged(path: Path, shown: str, name: str, recorded: dict[str, list[str]]) -> Record:
    try:
        data = path.read_bytes()
    except OSError as exc:
        return _item(name, "stray", "report", f"unreadable ({exc.strerror})", shown)
    if not data.strip():
        return _item(name, "stray", "remove", "empty", shown)
    text = data.decode("utf-8", errors="replace")
    session_id = _session_of(text)
    if session_id is None:
        return _item(name, "stray", "report", "not a session record: left as it is", shown)
    if session_id in recorded:
        return _item(name, "stray", "remove", f"{session_id} is already published", shown)
    item = _item(name, "stray", "publish", f"the only copy of {session_id}'s record", shown)
    return {**item, "_text": text}


def _session_of(text: str) -> str | None:
    if not text.startswith("---\nschema: session/v1\n"):
        return None
    for line in text.split("\n")[1:40]:
        if line.startswith("session_id: "):
            value = line.removeprefix("session_id: ").strip().strip('"')
            return value if sessions.is_session_id(value) else None
    return None


def settle_temp(layer: Layer, item: Record) -> None:
    """Publish an old temporary holding the only copy, else remove it."""
    root = layer.root
    path = root / str(item["path"])
    if item["action"] == "publish":
        from mj_core.yaml import strict as yamlstrict

        doc, body, _ = yamlstrict.split_front_matter(item["_text"], str(item["path"]))
        front = dict(doc.data) if isinstance(doc.data, dict) else {}
        published = sessionrecord.publish(root, front, body)
        shown = published.relative_to(root).as_posix()
        payload = {"action": "published-temporary", "session_path": shown}
        ledger.append(root, layer.state, "session.recovered", payload, session=_own(layer))
    with contextlib.suppress(FileNotFoundError):  # a later write's sweep may take it first
        os.unlink(path)
