"""The briefing's knowledge pointers kept for the next briefing, keyed by what git's index file
says of itself: its size and its trailing checksum (git writes the hash of everything before it
at the end of the index), read without starting git.

The pointers are a function of the index's entries (every path with its blob id: the graph's
sources and what they state), both sources files and the selection asked for (the task's scope,
the cap, its issue); the key's material is all of these, stored beside the fact and compared
whole, so only an identical index (to its checksum) and identical inputs read back the fact.
The briefing that computed the fact writes it (`.ai/local/cache/briefing-pointers.json`,
atomically); nothing that judges reads it. Where the index cannot be read plainly (the
environment names another index or steers git's discovery, a layout git must be asked about,
an index written without its checksum: `index.skipHash`) or changed while the fact was
computed, nothing is read or written; the MCP server, which writes nothing, reads it only
(`KEEPING`). A cache that is missing, unreadable or of another
version is a miss; one that cannot be written is skipped.
"""

from __future__ import annotations

import json
import os

from mj_policy.knowledge import cache

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

NAME = "briefing-pointers.json"
KEEPING = [True]  # False in a process that writes nothing whatever it runs (the MCP server)
_TRAILER = 32  # the last bytes of the index: a SHA-1 (20 bytes) or SHA-256 (32) checksum


def material(root: Path, selection: list[Any]) -> str | None:
    """What the fact for `selection` is keyed by, or None when the index is not read plainly."""
    from mj_core.git import layout as gitlayout
    from mj_policy.knowledge import sources

    if os.environ.get("GIT_INDEX_FILE"):
        return None
    found = gitlayout.dirs(str(root))
    index = _index(os.path.join(found[0], "index")) if found is not None else None
    if index is None:
        return None
    texts = sources.read(root)
    return json.dumps([cache.VERSION, index, texts["shared"], texts["operational"], selection])


def _index(path: str) -> str | None:
    """The index file's identity: its size and trailing bytes (None: none, or no checksum)."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size < 12 + _TRAILER:
                return None
            handle.seek(size - _TRAILER)
            tail = handle.read(_TRAILER)
    except OSError:
        return None
    if not any(tail[-20:]):  # index.skipHash: the checksum is left zero
        return None
    return f"{size}:{tail.hex()}"


def read(root: Path, said: str) -> Record | None:
    """The fact stored for exactly this material, or None."""
    try:
        with open(root / cache.DIRECTORY / NAME, "rb") as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("material") != said:
        return None
    fact = data.get("fact")
    return fact if isinstance(fact, dict) else None


def write(root: Path, said: str, fact: Record) -> None:
    """Keep `fact` for `said`, when the index still says what it said before the fact was
    computed; skipped, never an error, where `.ai/local/` is absent or refuses the write."""
    from mj_core.errors import MjError
    from mj_core.write import atomic

    if not KEEPING[0] or fact.get("problem") or not (root / ".ai" / "local").is_dir():
        return
    selection = json.loads(said)[-1]
    if material(root, selection) != said:
        return  # the index (or a sources file) changed meanwhile: the fact may be of neither
    body = json.dumps({"material": said, "fact": fact}, ensure_ascii=False).encode()
    try:
        atomic.make_dirs(root / cache.DIRECTORY, root=root)
        atomic.create(root / cache.DIRECTORY / NAME, body, replace=True, root=root,
                      durable=False)  # fmt: skip
    except (OSError, MjError):
        return
