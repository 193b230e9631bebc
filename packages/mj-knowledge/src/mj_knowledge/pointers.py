"""`mj-knowledge pointers`: the briefing's facts in, the same facts out with a `knowledge` fact
added: a bounded slice of the graph for the active task (CONTEXT-COMMAND, KNOWLEDGE POINTERS).

Selection follows only edges the files state, nearest first, each level in byte order of id:
the nodes whose source path lies inside the task's scope, then the nodes those name (the edge's
type is the relation that selected them). Nothing is searched or scored. The fact is added
only when a task is active and its profile sets `context.knowledge: true`; otherwise the stage
passes the facts on and asks git nothing. The briefing writes nothing: it reads the graph's
cache when `knowledge nodes|edges|sources` left one for this index, else compiles the graph.
A graph that cannot be built is the fact's `problem`, never the briefing's failure.
"""

from __future__ import annotations

from mj_core.stage import Stage

from mj_knowledge import cache

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stage import Context

    Record = dict[str, Any]

MORE = "majordomus knowledge edges"


def wanted(facts: dict[str, Record]) -> tuple[list[str], int] | None:
    """(the task's scope claims, the cap) when the briefing asks for pointers, else None."""
    task = (facts.get("task") or {}).get("task")
    if not task or task.get("outcome") != "active":
        return None
    profile = facts.get("profile") or {}
    context = ((profile.get("data") or {}) if profile.get("exists") else {}).get("context") or {}
    if context.get("knowledge") is not True:
        return None
    cap = int((facts.get("policy") or {}).get("max_list_items", 0))
    own = context.get("knowledge_max_items")
    if isinstance(own, int) and not isinstance(own, bool):
        cap = min(cap, own)
    return [str(s) for s in task.get("scope") or []], cap


def in_scope(nodes: list[list[Any]], claims: list[str]) -> list[str]:
    """The ids of the nodes whose source path lies inside a claim, in byte order."""
    if any(c in (".", "") for c in claims):
        return sorted(row[0] for row in nodes)
    exact = {c.rstrip("/") for c in claims}
    below = tuple(f"{c}/" for c in exact)
    return sorted(row[0] for row in nodes if row[2] in exact or row[2].startswith(below))


def select(nodes: list[list[Any]], edges: list[list[Any]], first: list[str]) -> list[Record]:
    """Every pointer, nearest first: nodes sourced in scope, then the nodes they name."""
    rows = {row[0]: row for row in nodes}
    chosen = dict.fromkeys(first)
    named: dict[str, str] = {}
    for kind, source, target, *_ in edges:
        if source in chosen and target in rows and target not in chosen:
            named.setdefault(target, kind)
    out = [_row("in scope", rows[i]) for i in first]
    out += [_row(named[i], rows[i]) for i in sorted(named)]
    return out


def _row(relation: str, row: list[Any]) -> Record:
    ident, kind, path, title = row[0], row[1], row[2], row[3]
    return {"relation": relation, "node_kind": kind, "id": ident, "path": path, "title": title}


def fact(root: Path, claims: list[str], cap: int) -> Record:
    from mj_core.errors import MjError

    from mj_knowledge import stages

    try:
        index = stages.index_fact(root)
        result = stages.compute(root, index, ("nodes",), store=False)
        first = in_scope(result["nodes"], claims)
        edges = result.get("edges")
        if edges is None:  # the cache gave the nodes: read the edges of these nodes only
            edges = cache.edges_from(root, str(index["key"]), set(first))
        if edges is None:
            result = stages.compute(root, index, store=False)
            edges = result["edges"]
    except MjError as exc:
        return {"kind": "fact", "fact": "knowledge", "problem": exc.message}
    chosen = select(result["nodes"], edges, first)
    return {"kind": "fact", "fact": "knowledge", "pointers": chosen[:cap], "total": len(chosen),
            "more": MORE}  # fmt: skip


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    facts: dict[str, Record] = {}
    for record in context.records(getattr(options, "input", None)):
        if record.get("kind") == "fact":
            facts[str(record.get("fact"))] = record
        yield record
    asked = wanted(facts) if facts else None
    if asked is not None:
        yield fact(context.root(), *asked)


STAGES = {"pointers": Stage(_run)}
