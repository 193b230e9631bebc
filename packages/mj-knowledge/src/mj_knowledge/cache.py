"""The graph's cache under `.ai/local/cache/`, keyed by what git's index says.

`knowledge-head.json` (findings, counts), `-files`, `-nodes` and `-edges.json` hold the last
graph, each part with its key (a digest of both sources files and the whole `git ls-files -s`
listing): an unchanged repository reads back the parts a reading shows and asks git nothing
more. `knowledge-entries.json` holds what each source file stated, keyed by its blob id,
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
PARTS = ("files", "nodes", "edges")  # each in knowledge-<part>.json; the rest in -head
FILES = "knowledge-entries.json"
VERSION = 3


def _read(root: Path, name: str) -> Record | None:
    try:
        with open(root / DIRECTORY / name, "rb") as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return None
    return data


def graph(root: Path, key: str, parts: tuple[str, ...]) -> Record | None:
    """The cached result for this key with the parts asked for (of `PARTS`), or None; each
    part is its own file, so a reading pays only for what it shows."""
    result: Record = {}
    for part in ("head", *parts):
        data = _read(root, f"knowledge-{part}.json")
        if data is None or data.get("key") != key or part not in data:
            return None
        if part == "head":
            result.update(data["head"])
        else:
            result[part] = data[part]
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
        head = {k: v for k, v in result.items() if k not in PARTS}
        head["counts"] = {"nodes": len(result["nodes"]), "edges": len(result["edges"])}
        for part, value in (*((p, result[p]) for p in PARTS), ("head", head)):
            body = {"version": VERSION, "key": key, part: value}
            atomic.create(root / DIRECTORY / f"knowledge-{part}.json", _dumps(body),
                          replace=True, root=root, durable=False)  # fmt: skip
    except (OSError, MjError):
        return


def _dumps(value: Record) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def pack(files: list[Record], problems: list[Record], graph: Record) -> Record:
    """The result as rows, not objects: a third of the bytes, read back in a third the time.
    `node`, `edge` and `source` records are built from the rows as they are written."""
    return {
        "files": [[f["path"], f["blob"], f["class"], f["kind"], f["scope"]] for f in files],
        "problems": problems,
        "findings": graph["findings"],
        "nodes": [[n["id"], n["node_kind"], n["path"], n["title"], n["class"], n["scope"]]
                  for n in graph["nodes"]],
        "edges": [[e["type"], e["source"], e["target"], e["ref"], e["provenance"]["path"],
                   e["provenance"]["line"], e["provenance"].get("field")]
                  for e in graph["edges"]],
    }  # fmt: skip
