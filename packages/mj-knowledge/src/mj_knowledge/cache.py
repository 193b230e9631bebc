"""The graph's cache under `.ai/local/cache/`, keyed by what git's index says.

`knowledge-graph.json` holds the last graph with its key (a digest of both sources files and
the whole `git ls-files -s` listing): an unchanged repository reads it back and asks git
nothing more. `knowledge-files.json` holds what each source file stated, keyed by its blob id,
class kind and path, so a changed index re-reads only the blobs it has not seen. A cache that
is missing, unreadable or of another version is a miss, never an error; a cache that cannot
be written is skipped (it only saves time). Both are rewritten whole, atomically.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

DIRECTORY = ".ai/local/cache"
GRAPH = "knowledge-graph.json"
FILES = "knowledge-files.json"
VERSION = 1


def _read(root: Path, name: str) -> Record | None:
    try:
        with open(root / DIRECTORY / name, "rb") as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return None
    return data


def graph(root: Path, key: str) -> Record | None:
    """The cached result for this key, or None."""
    data = _read(root, GRAPH)
    if data is None or data.get("key") != key or not isinstance(data.get("result"), dict):
        return None
    result: Record = data["result"]
    return result


def files(root: Path) -> dict[str, Record]:
    data = _read(root, FILES)
    entries = data.get("entries") if data is not None else None
    return entries if isinstance(entries, dict) else {}


def store(root: Path, key: str, result: Record, entries: dict[str, Record] | None) -> None:
    """Write the graph (and, when the files were re-read, their entries); skipped, never an
    error, where `.ai/local/` is absent or refuses the write."""
    from mj_core import atomic
    from mj_core.errors import MjError

    if not (root / ".ai" / "local").is_dir():
        return
    try:
        atomic.make_dirs(root / DIRECTORY, root=root)
        if entries is not None:
            body = {"version": VERSION, "entries": entries}
            atomic.create(root / DIRECTORY / FILES, _dumps(body), replace=True, root=root,
                          durable=False)  # fmt: skip
        body = {"version": VERSION, "key": key, "result": result}
        atomic.create(root / DIRECTORY / GRAPH, _dumps(body), replace=True, root=root,
                      durable=False)  # fmt: skip
    except (OSError, MjError):
        return


def _dumps(value: Record) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
