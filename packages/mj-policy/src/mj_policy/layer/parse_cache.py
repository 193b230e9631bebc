"""What reading a skill, a decision record or (for `update`, a writer) a rule file found, kept
in `.ai/local/cache/<kind>.json` between runs: a file whose size, modification and change
times are those recorded is not parsed again.

The cache is this checkout's own and never a source: an entry is used only when its stamp
matches the file on disk exactly (a file written in the last two seconds is never kept), the
whole cache only when it was written by this version of the tool against the same schema and
allow list; anything else (a missing, corrupt or foreign cache) is an empty cache. It is written
atomically, and only when an entry changed; a cache that cannot be written leaves the command's
verdict as it was (the cache only saves time).
"""

from __future__ import annotations

import os
import time

from mj_core import share
from mj_core.errors import MjError
from mj_core.stream import jsonl
from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer


RACY_NS = 2_000_000_000  # file times are coarse (a clock tick); two seconds is well clear


def _racy(now: Any, since: int) -> bool:
    """Whether any stamp within `now` (nested lists of [size, mtime, ctime]) is after `since`."""
    if isinstance(now, list) and len(now) == 3 and all(type(v) is int for v in now):
        return bool(now[1] > since or now[2] > since)
    return isinstance(now, list) and any(_racy(part, since) for part in now)


def stamp(path: Path | str) -> list[int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return [found.st_size, found.st_mtime_ns, found.st_ctime_ns]


def marks(doc: yamlstrict.Document) -> list[list[Any]]:
    return [[*path, line, col] for path, (line, col) in doc.marks.items()]


def document(name: str, data: Any, kept: list[list[Any]]) -> yamlstrict.Document:
    return yamlstrict.Document(name, data, {tuple(m[:-2]): (m[-2], m[-1]) for m in kept})


def keep(doc: yamlstrict.Document | None, problems: list[tuple[str, str]],
         **more: Any) -> dict[str, Any]:  # fmt: skip
    """What a read found, as a cache entry: the front matter with its marks, the problems, and
    whatever else the reader names."""
    return {"data": doc.data if doc is not None else None,
            "marks": marks(doc) if doc is not None else [],
            "problems": [list(p) for p in problems], **more}  # fmt: skip


def restored(shown: str, entry: dict[str, Any]) -> tuple[yamlstrict.Document | None,
                                                         list[tuple[str, str]]]:  # fmt: skip
    """The front matter and the problems a cache entry kept."""
    doc = document(shown, entry["data"], entry["marks"]) if entry["data"] is not None else None
    return doc, [(str(w), str(m)) for w, m in entry["problems"]]


class Cache:
    """The entries of one kind's cache, by repository-relative path."""

    __slots__ = ("changed", "entries", "key", "path", "root", "used")

    def __init__(self, lay: Layer, kind: str) -> None:
        self.root = lay.root
        self.path = lay.local / "cache" / f"{kind}.json"
        self.key = _key(kind)
        self.entries: dict[str, dict[str, Any]] = {}
        self.used: set[str] = set()
        self.changed = False
        try:
            data = jsonl.loads_line(self.path.read_bytes())
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and data.get("key") == self.key:
            entries = data.get("entries")
            self.entries = entries if isinstance(entries, dict) else {}

    def get(self, shown: str, now: list[Any]) -> dict[str, Any] | None:
        entry = self.entries.get(shown)
        if isinstance(entry, dict) and entry.get("stamp") == now:
            self.used.add(shown)
            return entry
        return None

    def put(self, shown: str, now: list[Any], value: dict[str, Any]) -> None:
        """Keep what a read found, unless a file was written too recently for its times to
        tell a later write of the same size apart (git's "racy" entries): read again next time."""
        if _racy(now, time.time_ns() - RACY_NS):
            self.entries.pop(shown, None)
            return
        self.entries[shown] = {"stamp": now, **value}
        self.used.add(shown)
        self.changed = True

    def save(self) -> None:
        """Write the cache when an entry changed or went; a failure to write is not an error."""
        gone = set(self.entries) - self.used
        if not (self.changed or gone):
            return
        kept = {k: v for k, v in sorted(self.entries.items()) if k in self.used}
        data = jsonl.dumps({"key": self.key, "entries": kept})
        from mj_core.write import atomic

        try:
            atomic.create(self.path, data, mode=0o600, replace=True, root=self.root,
                          durable=False)  # fmt: skip
        except (MjError, OSError):
            return


def _key(kind: str) -> str:
    """The tool's version and its contract for `kind`: a change to either empties the cache."""
    from mj_core import sha

    parts = (share.read_text("version.txt"), share.read_text("allow", f"{kind}.txt"),
             share.read_text("schemas", f"{kind}.schema.json"))  # fmt: skip
    return str(sha.hexdigest("\0".join(parts).encode("utf-8")))[:16]
