"""`mj-knowledge index` and `mj-knowledge graph --view sources|nodes|edges|check`.

`index` writes the one `knowledge-index` fact (`mj_policy.knowledge.index`: both sources
files' texts and git's index, with the digest that keys the cache). `graph` is a filter from
that fact (in-process, a file or stdin) to `source`, `node` or `edge` records and findings:
the graph is read from the cache when the key matches, else compiled from the source files'
blobs, and written back (`check` never writes). A FAIL ends every view 10.
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.stream.stage import Stage
from mj_policy.knowledge import index as graphindex
from mj_policy.knowledge import sources

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

FACT = graphindex.FACT
REFERENCES = "knowledge-references"  # each unresolved ledger or git reference, `mj-state`'s


def _index(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield graphindex.index_fact(context.root())


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


NEEDS = {"sources": ("files",), "nodes": ("nodes",), "edges": ("written",), "check": ()}


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
    from mj_policy.knowledge import listing

    scopes = {row[0]: row[5] for row in result["nodes"]} if scope != "all" else {}
    for row in result["edges"]:
        if (scope == "all" or scopes[row[1]] == scope) and wanted in (None, row[0]):
            yield listing.edge(row)


def _written(held: Record, wanted: str | None) -> Record:
    """The cached edge listing as one `written` record (every edge, or one type's)."""
    from mj_core.stream import protocol as streams

    if wanted is None:
        return streams.written("edge", held["count"], held["jsonl"], held["text"])
    from mj_policy.knowledge import listing

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
    result = graphindex.compute(root, fact, parts, store=store)
    if options.view == "check":
        from mj_policy.knowledge import notes

        told = given.get(REFERENCES, {}).get("findings") or []
        yield from views(result, options, [*notes.findings(root), *told])
        return
    yield from views(result, options)


STAGES = {"index": Stage(_index), "graph": Stage(_graph)}
