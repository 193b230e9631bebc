"""`mj-knowledge index` and `mj-knowledge graph --view sources|nodes|edges|check`.

`index` is the one question asked of git: both sources files' texts and the index as git
lists it (`git ls-files -s -z`: mode, blob id, stage and path of every entry) as one
`knowledge-index` fact, with the digest of all three that keys the
cache (and `cache.VERSION`, raised whenever what a file is read into changes). `graph` is a
filter from that fact (in-process, a file or stdin) to `source`, `node` or `edge` records and
findings: it reads the cached graph when the key matches, else the source files' blobs it has
not seen (`git cat-file --batch`, once), and writes the cache back (`check` never writes). A
FAIL ends every view 10.
"""

from __future__ import annotations

from mj_core.errors import InternalError
from mj_core.errors import MissingArtifact
from mj_core.stream.stage import Stage

from mj_knowledge import cache
from mj_knowledge import sources

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

FACT = "knowledge-index"
REFERENCES = "knowledge-references"  # each unresolved ledger or git reference, `mj-state`'s


def index_fact(root: Path) -> Record:
    from mj_core.git import questions as git

    texts = sources.read(root)
    code, stdout, stderr = git.run("ls-files", "-s", "-z", cwd=root)
    if code != 0:
        raise InternalError(f"git ls-files -s: {stderr.strip() or f'exit {code}'}")
    key = cache.key(material(texts, stdout))
    return {"kind": "fact", "fact": FACT, "key": key, "sources": texts, "listing": stdout}


def material(texts: dict[str, str], listing: str) -> str:
    """What the cache is keyed by: the cache's version, both sources files and the listing."""
    return "\0".join((str(cache.VERSION), texts["shared"], texts["operational"], listing))


def _index(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield index_fact(context.root())


def _facts(context: Context, path: str | None, *, whole: bool) -> dict[str, Record]:
    """The input's facts by name: the index fact (12 without one), and with `whole` every
    other (the `knowledge-references` fact `mj-state knowledge-refs` adds, for `check`)."""
    found: dict[str, Record] = {}
    for record in context.records(path):
        if record.get("kind") == "fact":
            found.setdefault(str(record.get("fact")), record)
            if FACT in found and not whole:
                break
    if FACT not in found:
        raise MissingArtifact(
            "no knowledge-index fact in the input — run `mj-knowledge index` first"
        )
    return found


def blobs(root: Path, wanted: list[str]) -> dict[str, bytes]:
    """The content of each blob id, read from git's object store in one call."""
    from mj_core import spawn
    from mj_core import timing
    from mj_core.git import questions as git

    if not wanted:
        return {}
    timing.count("git")
    argv = ["git", *git.SAFE, "-C", str(root), "cat-file", "--batch"]
    code, data, _ = spawn.run_input(
        argv, git.clean_env(), "".join(f"{b}\n" for b in wanted).encode()
    )
    if code != 0:
        raise InternalError(f"git cat-file --batch: exit {code}")
    out, at = {}, 0
    for blob in wanted:
        end = data.index(b"\n", at)
        header = data[at:end].split(b" ")
        if len(header) != 3:
            raise InternalError(f"git cat-file --batch: {blob} is missing from the object store")
        size = int(header[2])
        out[blob] = data[end + 1 : end + 1 + size]
        at = end + 2 + size
    return out


NEEDS = {"sources": ("files",), "nodes": ("nodes",), "edges": ("written",), "check": ()}


def compute(
    root: Path, fact: Record, parts: tuple[str, ...] = cache.PARTS, *, store: bool = True
) -> Record:
    """The packed graph of the index fact (`cache.pack`), from the cache when its key matches
    (then with the `parts` asked for only); written back only when `store` (the readings
    that write nothing, `check` and the briefing's pointers, only read it)."""
    key = str(fact["key"])
    said = material(dict(fact["sources"]), str(fact["listing"]))
    hit = cache.graph(root, key, parts, said) if cache.key(said) == key else None
    if hit is not None:
        return hit
    from mj_knowledge import extract  # only a miss reads a file
    from mj_knowledge import graph

    index = sources.parse_index(str(fact["listing"]))  # parsed only when the cache misses
    files, problems = sources.classify(sources.load(dict(fact["sources"])), index)
    seen = cache.files(root)
    names = [f"{f['blob']} {f['kind']} {f['path']}" for f in files]
    missing = [f["blob"] for f, n in zip(files, names, strict=True) if n not in seen]
    content = blobs(root, sorted(set(missing)))
    kept: dict[str, Record] = {}
    extracted = []
    for item, name in zip(files, names, strict=True):
        got = seen.get(name)
        if got is None:
            text = content[item["blob"]].decode("utf-8", "replace")
            got = extract.extract(item["path"], item["kind"], text)
        kept[name] = got
        extracted.append(got)
    tracked = sorted(p for p, _ in index)
    result = cache.pack(files, problems, graph.build(files, extracted, tracked))
    result["findings"] = graph.findings_of(result["findings"], problems)  # kept as records
    if store:
        kept_or_none = kept if missing or len(kept) != len(seen) else None
        cache.store(root, key, said, result, kept_or_none)
    return result


def views(
    result: Record, options: argparse.Namespace, records: list[Record] | None = None
) -> Iterator[Record]:
    """The view's records, built from the packed rows (`cache.pack`), then the findings (for
    `check`, those of the knowledge records too, `notes.findings`)."""
    view = options.view
    scope = getattr(options, "scope", None) or "all"
    findings = [*result["findings"], *(records or [])]
    if view == "sources":
        for path, blob, cls, kind, where in result["files"]:
            if scope in ("all", where):
                yield {"kind": "source", "class": cls, "scope": where, "node_kind": kind,
                       "blob": blob, "path": path}  # fmt: skip
        yield from (f for f in findings if f["subject"] in _class_subjects(result))
        return
    if view == "nodes":
        wanted = getattr(options, "kind", None)
        for ident, kind, path, title, cls, where in result["nodes"]:
            if scope in ("all", where) and wanted in (None, kind):
                yield {"kind": "node", "id": ident, "node_kind": kind, "path": path,
                       "title": title, "class": cls, "scope": where}  # fmt: skip
    elif view == "edges" and "written" in result:
        yield _written(result["written"], getattr(options, "type", None))
    elif view == "edges":
        yield from _edges(result, scope, getattr(options, "type", None))
    yield from findings
    if view == "check" and not any(f["level"] == "FAIL" for f in findings):
        from mj_core.findings import Finding

        held = result.get("counts") or {"nodes": len(result["nodes"]),
                                         "edges": len(result["edges"])}  # fmt: skip
        counts = f"{held['nodes']} node(s), {held['edges']} edge(s)"
        said = f"{counts}; every declared reference resolves, every knowledge record reads"
        yield Finding("OK", "knowledge", sources.SHARED, said).record()


def _edges(result: Record, scope: str, wanted: str | None) -> Iterator[Record]:
    from mj_knowledge import listing

    scopes = {row[0]: row[5] for row in result["nodes"]} if scope != "all" else {}
    for row in result["edges"]:
        if (scope == "all" or scopes[row[1]] == scope) and wanted in (None, row[0]):
            yield listing.edge(row)


def _written(held: Record, wanted: str | None) -> Record:
    """The cached edge listing as one `written` record (every edge, or one type's)."""
    from mj_core.stream import protocol as streams

    if wanted is None:
        return streams.written("edge", held["count"], held["jsonl"], held["text"])
    from mj_knowledge import listing

    return streams.written("edge", *listing.of_type(bytes(streams.written_part(held, "jsonl")),
                                                    wanted))  # fmt: skip


def _class_subjects(result: Record) -> set[str]:
    """The subjects of the index's own problems (classes and doubly claimed files)."""
    return {p["subject"] for p in result["problems"]}


def _graph(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    given = _facts(context, getattr(options, "input", None), whole=options.view == "check")
    fact = given[FACT]
    parts = NEEDS[options.view]
    if options.view == "edges" and (getattr(options, "scope", None) or "all") != "all":
        parts = ("nodes", "edges")  # an edge's scope is its source node's
    store = options.view != "check"  # `knowledge check` writes nothing (SCHEMAS)
    root = context.root()
    result = compute(root, fact, parts, store=store)
    if options.view == "check":
        from mj_knowledge import notes

        told = given.get(REFERENCES, {}).get("findings") or []
        yield from views(result, options, [*notes.findings(root), *told])
        return
    yield from views(result, options)


STAGES = {"index": Stage(_index), "graph": Stage(_graph)}
