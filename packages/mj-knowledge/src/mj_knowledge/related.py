"""`mj-knowledge related [<node>] [--path <path>]…`: every node the briefing's knowledge
pointers would reach from a node or from paths, uncapped, in the order the briefing lists
them (`pointers.select`): for an issue, the issue, the issues it depends on, its milestone and
what that milestone declares; for any other node, the node; then the nodes whose source lies
in each path; then the nodes those name. With neither a node nor a path, the active task's
issue and scope (the `mj-state facts` before it: the ledger's task; 12 without one). The
briefing's pointer section ends with this command when its cap left some out, so what it
counts is what this prints. A node the graph does not hold is 12. Nothing is written (the
graph's cache is read when it matches the index, else the graph is compiled).
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.stream.stage import Stage
from mj_policy.knowledge import index as graphindex

from mj_knowledge import pointers

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def related(root: Path, node: str | None, paths: list[str]) -> list[Record]:
    index = graphindex.index_fact(root)
    result = graphindex.compute(root, index, store=False)
    nodes = result["nodes"]
    if node and not any(row[0] == node for row in nodes):
        raise MissingArtifact(
            f"{node}: not a node of the graph — `majordomus knowledge nodes` lists them"
        )
    edges = pointers.lookup(result["edges"])
    first = pointers.in_scope(nodes, paths) if paths else []
    if node and node.startswith("issue:"):
        return pointers.select(nodes, edges, first, node[len("issue:") :])
    return pointers.select(nodes, edges, first, asked=node)


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    facts = {str(r.get("fact")): r for r in context.records()
             if r.get("kind") == "fact"}  # fmt: skip
    node, paths = options.node, list(options.path or [])
    if not node and not paths:
        node, paths = _the_tasks(facts)
    found = related(context.root(), node, paths)
    yield from ({"kind": "pointer", **row} for row in found)


def _the_tasks(facts: dict[str, Record]) -> tuple[str | None, list[str]]:
    """The active task's issue and scope (from `mj-state facts`: the ledger's task), which is
    where the briefing's pointers start; 12 without an active task."""
    task = (facts.get("task") or {}).get("task")
    if not task or task.get("outcome") != "active":
        raise MissingArtifact(
            "knowledge related: no active task to start from — name a node (issue:<id>, "
            "rule:<id>, …) or a --path"
        )
    issue = task.get("issue")
    return (f"issue:{issue}" if issue else None), [str(s) for s in task.get("scope") or []]


STAGES = {"related": Stage(_run)}
