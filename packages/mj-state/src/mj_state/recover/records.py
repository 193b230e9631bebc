"""The repairs of `recover records` and `recover orphans` (judged by `mj_state.recover.judge`).

Duplicates (two closed records of one session id) fold into the oldest by `created_at`: the
oldest is rewritten with every list united, and each other copy moves (link, then unlink) to
`state/archive/recovered/`. An old temporary holding the only copy of a session record is
published; one already published or empty is removed.
"""

from __future__ import annotations

import contextlib
import os

from mj_state.ledger import store as ledger
from mj_state.session import envelope
from mj_state.session import record as sessionrecord
from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def fold(layer: Layer, item: Record) -> None:
    from mj_core.write import atomic

    root = layer.root
    loaded = item["_loaded"]
    oldest_name, front, body = loaded[0]["name"], loaded[0]["front"], loaded[0]["body"]
    united = dict(front)
    for name in (*envelope.LISTS, "commits", "changed_files"):
        merged: list[str] = []
        for copy in loaded:
            merged += [v for v in copy["front"].get(name) or [] if v not in merged]
        united[name] = merged
    target = sessions.closed_dir(root) / oldest_name
    atomic.create(target, sessionrecord.render(united, body), mode=sessions.MODE, replace=True)
    archive = layer.state / "archive" / "recovered"
    atomic.make_dirs(archive, root=root)
    for name in (str(copy["name"]) for copy in loaded[1:]):
        source = sessions.closed_dir(root) / name
        with contextlib.suppress(FileExistsError):
            os.link(source, archive / name)
        os.unlink(source)
        shown = (archive / name).relative_to(root).as_posix()
        payload = {"action": "folded", "session_path": shown}
        ledger.append(root, layer.state, "session.recovered", payload, session=_own(layer))


def _own(layer: Layer) -> str:
    return sessions.own(layer.state, layer.root)


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
