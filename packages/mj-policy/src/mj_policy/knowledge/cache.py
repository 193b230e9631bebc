"""The graph's cache under `.ai/local/cache/`, keyed by what git's index says.

`knowledge-head` (findings and counts, then the material the key names: both sources files
and the whole `git ls-files -s` listing, compared byte for byte), `-files.json`,
`-nodes.json` and `-edges.jsonl` hold the last graph, each part stamped with its key: an
unchanged repository reads back the parts a reading shows and asks git nothing more.
`knowledge-listing.jsonl` and `-listing.txt` hold every edge as written out (the JSON Lines a
tool emits, the lines a person reads, `mj_policy.knowledge.listing`), so listing the edges of an
unchanged repository copies bytes. `knowledge-entries.json` holds what each source file
stated, keyed by its blob id, class kind and path, so a changed index re-reads only the blobs
it has not seen. A cache that is missing, unreadable or of another version is a miss, never an
error; a cache that cannot be written is skipped (it only saves time). Each file is rewritten
whole, atomically, the head last.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

DIRECTORY = ".ai/local/cache"
EDGES = "knowledge-edges.jsonl"
PARTS = ("files", "nodes", "edges")  # each in knowledge-<part>.json; the rest in -head
FILES = "knowledge-entries.json"
HEAD = "knowledge-head"  # written last: a graph is whole once its head names its key
LISTING = {"jsonl": "knowledge-listing.jsonl", "text": "knowledge-listing.txt"}
VERSION = 9


def _read(root: Path, name: str) -> Record | None:
    try:
        with open(root / DIRECTORY / name, "rb") as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return None
    return data


def _lines(root: Path, key: str) -> list[list[Any]] | None:
    """Every edge row of `knowledge-edges.jsonl` (its first line the version and key)."""
    data = _stamped(root, EDGES, key)
    if data is None:
        return None
    rows: list[list[Any]] = []
    try:
        for line in str(data, "utf-8").split("\n"):
            source, _, said = line.partition("\t")
            if said:
                name = json.loads(source)
                rows += [[row[0], name, *row[1:]] for row in json.loads(said)]
    except ValueError:  # undecodable or not JSON: a miss
        return None
    return rows


class Listing:
    """One written form of the edges (`LISTING`), read when first asked for: a listing for a
    person never reads the JSON Lines, nor a tool's the text."""

    __slots__ = ("key", "name", "root")

    def __init__(self, root: Path, key: str, name: str) -> None:
        self.root, self.key, self.name = root, key, name

    def __call__(self) -> memoryview:
        from mj_core.errors import InternalError

        data = _stamped(self.root, self.name, self.key)
        if data is None:
            raise InternalError(f"{DIRECTORY}/{self.name}: rewritten while it was read — run again")
        return data


def _stamped(root: Path, name: str, key: str) -> memoryview | None:
    """The file's content after its first line, when that line is this version and key."""
    data = _bytes(root, name)
    stamp = (json.dumps([VERSION, key]) + "\n").encode()
    return memoryview(data)[len(stamp) :] if data and data.startswith(stamp) else None


def _bytes(root: Path, name: str) -> bytes | None:
    try:
        with open(root / DIRECTORY / name, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _listing(root: Path, key: str, count: int) -> Record | None:
    """The written edges (`mj_core.stream.protocol.written`'s parts) when both files are this
    key's."""
    stamp = (json.dumps([VERSION, key]) + "\n").encode()
    for name in LISTING.values():
        try:
            with open(root / DIRECTORY / name, "rb") as handle:
                if handle.read(len(stamp)) != stamp:
                    return None
        except OSError:
            return None
    return {"count": count, **{part: Listing(root, key, n) for part, n in LISTING.items()}}


def edge_lookup(root: Path, key: str) -> Callable[[set[str]], list[list[Any]]] | None:
    """A function from source node ids to their cached edge rows (the file read once, a source's
    rows parsed only when asked for), or None when the cache holds no edges for this key."""
    data = _stamped(root, EDGES, key)
    if data is None:
        return None
    table: dict[str, str] = {}
    for line in str(data, "utf-8", "replace").split("\n"):
        source, _, said = line.partition("\t")
        if said:
            table[source] = said

    def edges(sources: set[str]) -> list[list[Any]]:
        rows: list[list[Any]] = []
        for source in sorted(sources):
            said = table.get(json.dumps(source))
            parsed = _json(said.encode()) if said is not None else None
            if isinstance(parsed, list):  # a line that does not parse is an edge less, no more
                rows += [[row[0], source, *row[1:]] for row in parsed]
        return rows

    return edges


def key(material: str) -> str:
    """A short name of the material: its length and two checksums (`zlib`, which costs a
    briefing less than `hashlib`); the head holds the material itself, compared whole, so a
    collision can only make a miss, never a wrong graph."""
    import zlib

    data = material.encode()
    return f"{len(data):x}-{zlib.crc32(data):08x}-{zlib.adler32(data):08x}"


def _head(root: Path, key: str, material: bytes) -> Record | None:
    """The head (findings, problems, counts) when it was written for exactly this material:
    after its stamp, the head as one JSON line, then the material, compared byte for byte."""
    data = _bytes(root, HEAD)
    stamp = (json.dumps([VERSION, key]) + "\n").encode()
    if not data or not data.startswith(stamp):
        return None
    end = data.find(b"\n", len(stamp))
    head = _json(data[len(stamp) : end]) if end >= 0 else None
    if not isinstance(head, dict) or memoryview(data)[end + 1 :] != material:
        return None
    return head


def _json(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return None


def graph(root: Path, key: str, parts: tuple[str, ...], material: str) -> Record | None:
    """The cached result for this key with the parts asked for (of `PARTS`), or None; each
    part is its own file, so a reading pays only for what it shows; `written` is the edge
    listing as written out."""
    head = _head(root, key, material.encode())
    if head is None:
        return None
    result: Record = dict(head)
    for part in parts:
        value: Any
        if part == "edges":
            value = _lines(root, key)
        elif part == "written":
            value = _listing(root, key, int(head["counts"]["edges"]))
        else:
            data = _read(root, f"knowledge-{part}.json")
            value = data.get(part) if data is not None and data.get("key") == key else None
        if value is None:
            return None
        result[part] = value
    return result


def files(root: Path) -> dict[str, Record]:
    data = _read(root, FILES)
    entries = data.get("entries") if data is not None else None
    return entries if isinstance(entries, dict) else {}


def store(
    root: Path, key: str, material: str, result: Record, entries: dict[str, Record] | None
) -> None:
    """Write the graph (and, when the files were re-read, their entries); skipped, never an
    error, where `.ai/local/` is absent or refuses the write."""
    from mj_core.errors import MjError
    from mj_core.write import atomic

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
        atomic.create(root / DIRECTORY / EDGES, _edge_lines(key, result["edges"]), replace=True,
                      root=root, durable=False)  # fmt: skip
        _store_listing(root, key, result["edges"])
        for part, value in ((p, result[p]) for p in PARTS if p != "edges"):
            body = {"version": VERSION, "key": key, part: value}
            atomic.create(root / DIRECTORY / f"knowledge-{part}.json", _dumps(body),
                          replace=True, root=root, durable=False)  # fmt: skip
        stamp = (json.dumps([VERSION, key]) + "\n").encode()
        written = stamp + _dumps(head) + b"\n" + material.encode()
        atomic.create(root / DIRECTORY / HEAD, written, replace=True, root=root, durable=False)
    except (OSError, MjError):
        return


def _store_listing(root: Path, key: str, rows: list[list[Any]]) -> None:
    from mj_core.write import atomic

    from mj_policy.knowledge import listing

    head = (json.dumps([VERSION, key]) + "\n").encode()
    for part, data in zip(("jsonl", "text"), listing.edge_listing(rows), strict=True):
        atomic.create(root / DIRECTORY / LISTING[part], head + data, replace=True, root=root,
                      durable=False)  # fmt: skip


def _edge_lines(key: str, rows: list[list[Any]]) -> bytes:
    """One line a source node: its id, a tab, its edges' rows without the source (the rows
    come sorted by source)."""
    out = [json.dumps([VERSION, key])]
    at = 0
    while at < len(rows):
        source, end = rows[at][1], at
        while end < len(rows) and rows[end][1] == source:
            end += 1
        mine = [[row[0], *row[2:]] for row in rows[at:end]]
        out.append(json.dumps(source) + "\t" + json.dumps(mine, ensure_ascii=False))
        at = end
    return ("\n".join(out) + "\n").encode()


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
