"""`mj-policy adopt-facts`: every record of its input passes on (the pieces of `mj-policy
instructions`, then what `init`'s stages created); then what `mj-policy adopt-judge` judges, as
one `adopt` fact: the pieces, for each whether the layer carries it already and by what (a rule
that names it and still holds its text where it reached, or the bootstrap every projection
begins with), and the slugs the layer's project rules take. Nothing is judged here.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

from mj_policy.adoption import cover as importcover
from mj_policy.adoption import plan as importplan

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    pieces: list[Record] = []
    for record in context.records(getattr(options, "input", None)):
        if record.get("kind") == "piece":
            pieces.append(record)
        yield record
    yield gather(context.root(), pieces)


def gather(root: Path, pieces: list[Record]) -> Record:
    """The `adopt` fact (the writer gathers it again, the same way)."""
    from mj_policy.layer import loader as layer_mod

    layer = layer_mod.load(root)
    coverage = importcover.load(layer, always=True)
    assert coverage is not None
    carried = [coverage.of(p) for p in pieces]
    return {"kind": "fact", "fact": "adopt", "pieces": pieces, "carried": carried,
            "taken": sorted(_taken(layer))}  # fmt: skip


def _taken(layer: Layer) -> set[str]:
    """The slugs in use: each project rule's id (past `project.`) and file name (before `.v`)."""
    base = layer.root / importplan.DIRECTORY
    taken = set()
    if base.is_dir():
        from mj_policy.rules import effective as rules

        for rule in rules.discover(layer):
            taken.add(rule.id.removeprefix("project."))
        for path in base.rglob("*.md"):
            taken.add(path.name.removesuffix(".md").split(".v", 1)[0])
    return taken


STAGES = {"adopt-facts": Stage(run)}
