"""`mj-knowledge pointers`: the briefing's facts in, the same facts out with what the knowledge
layer tells this briefing: the candidates awaiting review on this branch (a
`knowledge-candidates` fact, for KNOWLEDGE) and a bounded slice of the graph for the active
task (a `knowledge` fact, for KNOWLEDGE POINTERS; CONTEXT-COMMAND).

Selection follows only edges the files state, nearest first, each level in byte order of id:
the issue the task was started for, the issues it depends on, its milestone, the claims that
milestone declares, the nodes whose source path lies inside the task's scope, then the nodes
those name (the edge's type is the relation that selected them). Nothing is searched or
scored. The fact names the `knowledge related` command that prints the whole selection, what
the cap left out included. An issue the task names that is not a node is a `stale` line, and
the rest is still listed. The pointers are added only when a task is active and its profile sets
`context.knowledge: true`; otherwise the graph is not asked for. The briefing writes nothing:
it reads the graph's cache when `knowledge nodes|edges|sources` left one for this index, else
compiles the graph. A graph that cannot be built is the fact's `problem`, never the
briefing's failure.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage
from mj_policy.knowledge import cache

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]
    Edges = Callable[[set[str]], list[list[Any]]]


PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@%+=,")


def more(issue: str | None, claims: list[str]) -> str:
    """The command that prints every pointer this selection holds, the capped ones included
    (`shlex` quotes a word only when one needs it: the briefing's path imports nothing more)."""
    argv = ["majordomus", "knowledge", "related", *([f"issue:{issue}"] if issue else [])]
    for claim in claims:
        argv += ["--path", claim]
    if all(word and PLAIN.issuperset(word) for word in argv):
        return " ".join(argv)
    import shlex

    return shlex.join(argv)


def wanted(facts: dict[str, Record]) -> tuple[list[str], int, str | None] | None:
    """(the task's scope claims, the cap, its issue) when the briefing asks for pointers."""
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
    issue = task.get("issue")
    return [str(s) for s in task.get("scope") or []], cap, str(issue) if issue else None


def in_scope(nodes: list[list[Any]], claims: list[str]) -> list[str]:
    """The ids of the nodes whose source path lies inside a claim, in byte order."""
    if any(c in (".", "") for c in claims):
        return sorted(row[0] for row in nodes)
    exact = {c.rstrip("/") for c in claims}
    below = tuple(f"{c}/" for c in exact)
    return sorted(row[0] for row in nodes if row[2] in exact or row[2].startswith(below))


def select(
    nodes: list[list[Any]],
    edges: Edges,
    first: list[str],
    issue: str | None = None,
    asked: str | None = None,
) -> list[Record]:
    """Every pointer, nearest first: the issue's levels (or the node `asked` for), the nodes
    sourced in scope, then the nodes they name. `edges(sources)` gives the edge rows of those
    source nodes."""
    rows = {row[0]: row for row in nodes}
    chosen: dict[str, str] = {}  # id → the relation that selected it, in selection order

    def level(relation: str, ids: list[str] | set[str]) -> None:
        for ident in sorted(i for i in ids if i in rows and i not in chosen):
            chosen[ident] = relation

    node = f"issue:{issue}" if issue else None
    if node in rows:
        said = edges({node}) if node else []
        level("started for", [node] if node else [])
        level("depends_on", [t for k, s, t, *_ in said if k == "depends_on" and s == node])
        milestones = [t for k, s, t, *_ in said if k == "part_of" and s == node]
        level("part_of", milestones)
        declared = edges(set(milestones)) if milestones else []
        level("declares", [t for k, s, t, *_ in declared if k == "declares"])
    level("asked", [asked] if asked else [])
    level("in scope", first)
    named: dict[str, str] = {}
    sources = set(first) | ({asked} if asked is not None and asked in rows else set())
    for kind, _, target, *_ in edges(sources) if sources else []:
        if target in rows and target not in chosen:
            named.setdefault(target, kind)
    for ident in sorted(named):
        chosen[ident] = named[ident]
    return [_row(relation, rows[i]) for i, relation in chosen.items()]


def _row(relation: str, row: list[Any]) -> Record:
    ident, kind, path, title = row[0], row[1], row[2], row[3]
    return {"relation": relation, "node_kind": kind, "id": ident, "path": path, "title": title}


def fact(root: Path, claims: list[str], cap: int, issue: str | None = None) -> Record:
    """The `knowledge` fact: read back when this index and these inputs made it last
    (`brief_cache`), else computed here and kept for the next briefing."""
    from mj_core.errors import MjError

    from mj_knowledge import brief_cache as briefcache

    try:
        said = briefcache.material(root, [claims, cap, issue])
    except MjError as exc:  # the sources file: the graph's own problem, said as it says it
        return {"kind": "fact", "fact": "knowledge", "problem": exc.message}
    kept = briefcache.read(root, said) if said is not None else None
    if kept is not None:
        return kept
    out = computed(root, claims, cap, issue)
    if said is not None:
        briefcache.write(root, said, out)
    return out


def computed(root: Path, claims: list[str], cap: int, issue: str | None = None) -> Record:
    """The `knowledge` fact from the graph (its cache when `knowledge` left one for this
    listing, else compiled)."""
    from mj_core.errors import MjError
    from mj_policy.knowledge import index as graphindex

    try:
        index = graphindex.index_fact(root)
        result = graphindex.compute(root, index, ("nodes",), store=False)
        edges = cache.edge_lookup(root, str(index["key"])) if "edges" not in result else None
        if edges is None:  # compiled now, or a cache without its edges
            result = result if "edges" in result else graphindex.compute(root, index, store=False)
            edges = lookup(result["edges"])
        chosen = select(result["nodes"], edges, in_scope(result["nodes"], claims), issue)
    except MjError as exc:
        return {"kind": "fact", "fact": "knowledge", "problem": exc.message}
    out: Record = {"kind": "fact", "fact": "knowledge", "pointers": chosen[:cap],
                   "total": len(chosen), "more": more(issue, claims)}  # fmt: skip
    if issue and not any(row[0] == f"issue:{issue}" for row in result["nodes"]):
        out["stale"] = (f"issue:{issue} is not a node of the graph: its record is not in git's "
                        "index (never added, or removed)")  # fmt: skip
    return out


def lookup(rows: list[list[Any]]) -> Edges:
    def edges(sources: set[str]) -> list[list[Any]]:
        return [row for row in rows if row[1] in sources]

    return edges


def _candidates(root: Path, facts: dict[str, Record]) -> Record:
    from mj_core.errors import MjError
    from mj_policy.knowledge import notes

    branch = (facts.get("git") or {}).get("branch")
    if not notes.listed(root, notes.CANDIDATES):  # none waiting: no survey, no episodes read
        return {"kind": "fact", "fact": "knowledge-candidates", "branch": branch, "here": [],
                "unassigned": [], "total": 0, "more": notes.MORE}  # fmt: skip
    from mj_knowledge import candidates

    try:
        return candidates.briefing(root, branch)
    except MjError as exc:  # a record that does not read is `knowledge check`'s to fail
        return {"kind": "fact", "fact": "knowledge-candidates", "branch": branch, "here": [],
                "unassigned": [], "total": 0, "more": candidates.MORE,
                "problem": exc.message}  # fmt: skip


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    facts: dict[str, Record] = {}
    for record in context.records(getattr(options, "input", None)):
        if record.get("kind") == "fact":
            facts[str(record.get("fact"))] = record
        yield record
    if "git" in facts:
        yield _candidates(context.root(), facts)
    asked = wanted(facts) if facts else None
    if asked is not None:
        yield fact(context.root(), *asked)


STAGES = {"pointers": Stage(_run)}
