"""The references decision records and knowledge records make, each resolved
(`mj_state.records.references`): a reference that names nothing is a problem naming the file, line
and
field, and what was looked for where.

A decision record's `related` and `provenance.derived_from`; a knowledge record's
`provenance.derived_from`, and each `relations[].target` of a kind the graph leaves to this
check (the ledger's and git's: a session, decision, task or commit — `mj_policy.knowledge.graph`
resolves the others against its nodes). `supersedes` and `superseded_by` are the decision
set's own (`mj_policy.adr.model`).

`mj-state knowledge-refs` passes its input on and adds the `knowledge-references` fact (those
of the knowledge records, and each `verified` record no `knowledge.promoted` line names, as
doctor finds them: `mj_state.records.promote.unpromoted`), which `mj-knowledge graph --view check`
judges with the graph.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

from mj_state.records.references import World

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_core.yaml.strict import Document
    from mj_policy.adr import model as adrmodel
    from mj_policy.layer.loader import Layer

    Place = tuple[str, str, str]  # (file:line:col, field, reference)

EXTERNAL = ("session", "decision", "task", "commit")  # what the knowledge graph never resolves


def _strings(data: dict[str, Any], *path: str) -> list[tuple[int, str]]:
    value: Any = data
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    items = value if isinstance(value, list) else []
    return [(i, v) for i, v in enumerate(items) if isinstance(v, str)]


def adr_places(doc: Document) -> list[Place]:
    data = doc.data if isinstance(doc.data, dict) else {}
    out = [(doc.where(("related", i)), "related", ref)
           for i, ref in _strings(data, "related")]  # fmt: skip
    out += [(doc.where(("provenance", "derived_from", i)), "provenance.derived_from", ref)
            for i, ref in _strings(data, "provenance", "derived_from")]  # fmt: skip
    return out


def knowledge_places(doc: Document) -> list[Place]:
    data = doc.data if isinstance(doc.data, dict) else {}
    out = [(doc.where(("provenance", "derived_from", i)), "provenance.derived_from", ref)
           for i, ref in _strings(data, "provenance", "derived_from")]  # fmt: skip
    relations = data.get("relations")
    for i, item in enumerate(relations if isinstance(relations, list) else []):
        target = item.get("target") if isinstance(item, dict) else None
        if isinstance(target, str) and target.partition(":")[0] in EXTERNAL:
            out.append((doc.where(("relations", i, "target")), "relations.target", target))
    return out


def unresolved(world: World, places: list[Place]) -> list[tuple[str, str]]:
    """(where, message) of each reference among `places` that names nothing."""
    world.prepare(ref for _, _, ref in places)
    out = []
    for where, field, ref in places:
        why = world.why_not(ref)
        if why is not None:
            out.append((where, f"{field} {ref}: dangling — {why}"))
    return out


def adrs(lay: Layer, model: adrmodel.Model, world: World | None = None) -> None:
    """Add each record's unresolved references to its problems."""
    world = world or World(lay)
    places = {item.path: adr_places(item.doc) for item in model.records if item.doc is not None}
    world.prepare(ref for found in places.values() for _, _, ref in found)
    for item in model.records:
        item.problems += unresolved(world, places.get(item.path, []))


def knowledge(lay: Layer, world: World | None = None) -> list[dict[str, Any]]:
    """A FAIL finding record for each unresolved reference of every knowledge record."""
    from mj_core.findings import Finding
    from mj_policy.knowledge import notes

    world = world or World(lay)
    out = []
    for directory in (notes.CANDIDATES, notes.CURATED):
        for path in notes.listed(lay.root, directory):
            note = notes.read(lay.root, path)
            if note.doc is None:
                continue
            for where, message in unresolved(world, knowledge_places(note.doc)):
                said = Finding("FAIL", notes.KIND, where, message, "majordomus knowledge check")
                out.append(said.record())
    return out


def _knowledge_refs(options: argparse.Namespace, context: Context) -> Iterator[dict[str, Any]]:
    """The upstream records passed on, then the `knowledge-references` fact."""
    from mj_policy.layer.loader import load

    yield from context.records(getattr(options, "input", None))
    from mj_state.records import promote as promoting

    lay = load(context.root())
    found = knowledge(lay) + promoting.unpromoted_here(lay)
    yield {"kind": "fact", "fact": "knowledge-references", "findings": found}


STAGES = {"knowledge-refs": Stage(_knowledge_refs)}
