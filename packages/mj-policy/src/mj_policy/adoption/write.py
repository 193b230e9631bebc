"""`mj-policy adopt` (what `majordomus init --import` ends with): the layer, as `init` writes
it, then the rules made from the `piece` records on its input (`mj-policy instructions`), each a
new file under `.ai/repo/rules/project/` — every piece read before the first write, and
nothing written outside `.ai/` but what `init` writes (the `.ai/local` line of `.gitignore`).

The instruction files themselves are left as they are: `majordomus update` replaces them with
projections afterwards (`mj_policy.adoption.handover`), once each piece of them is carried by a
rule.
A rule file is checked against the rule format before anything is written, so a piece the
format cannot hold (over the layer's size limits) stops the import with 10 and writes no rule.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.stream.stage import Stage
from mj_core.write import atomic
from mj_core.yaml import strict as yamlstrict

from mj_policy.adoption import cover as importcover
from mj_policy.adoption import plan as importplan

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_policy.adoption.plan import Planned
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def rule_text(rule: Planned) -> str:
    data: dict[str, Any] = {
        "id": rule.id,
        "version": 1,
        "kind": "rule",
        "title": rule.title,
        "description": rule.description,
        "statement": rule.statement,
        "status": "active",
        "class": "advisory",
        "depends_on": [],
        "tags": ["imported"],
    }
    if rule.reach == "always":
        data["always_loaded"] = True
    elif rule.reach == "paths":
        data["paths"] = rule.paths
    data["imported_from"] = [_provenance(p) for p in rule.pieces]
    return f"---\n{yamlstrict.dump(data)}---\n\n{rule.body}\n"


def _provenance(piece: Record) -> dict[str, str]:
    first, last = piece["lines"]
    found = {"file": str(piece["file"]), "lines": f"{first}-{last}", "sha256": piece["sha256"]}
    if piece.get("via"):
        found["via"] = str(piece["via"])
    return found


class Adoption:
    """What `init --import` writes besides the skeleton: the policy's added projections (on a
    new layer), then the rules."""

    __slots__ = ("changed", "left", "pieces", "root", "warnings")

    def __init__(self, root: Path, records: list[Record]) -> None:
        from mj_core import share

        from mj_policy.adoption import policy as importpolicy

        self.root = root
        self.pieces = [r for r in records if r.get("kind") == "piece"]
        self.left = [r for r in records if r.get("kind") == "not-imported"]
        self.changed: dict[str, bytes] = {}
        self.warnings: list[Record] = []
        policy = root / importpolicy.POLICY
        if policy.exists() or policy.is_symlink():  # --extend: the policy is the person's
            text = yamlstrict.read_text(policy, importpolicy.POLICY)
            self.warnings = importpolicy.warnings(importpolicy.missing(text, self.pieces))
            return
        text = share.path("skeleton", "ai", "repo", "policy.yaml").read_text(encoding="utf-8")
        wanted = importpolicy.missing(text, self.pieces)
        if wanted:
            self.changed[importpolicy.POLICY] = importpolicy.declared(text, wanted).encode()

    def write(self) -> Iterator[Record]:
        from mj_policy.layer import loader as layer_mod

        yield from write(layer_mod.load(self.root), self.pieces, self.left)
        yield from self.warnings


def write(layer: Layer, pieces: list[Record], left: Iterable[Record]) -> Iterator[Record]:
    """Plan the rules from the pieces, check every rule file, then write each."""
    coverage = importcover.load(layer, always=True)
    assert coverage is not None
    rules, carried = importplan.plan(pieces, _taken(layer), coverage.of)
    texts = [(rule, _checked(layer.root, rule, rule_text(rule))) for rule in rules]
    for rule, text in texts:
        atomic.create(layer.root / rule.file, text.encode("utf-8"), mode=0o644, root=layer.root)
        yield imported(rule)
    yield from left
    yield from carried


def imported(rule: Planned) -> Record:
    return {
        "kind": "imported",
        "rule": rule.id,
        "path": rule.file,
        "reach": rule.reach,
        "paths": rule.paths,
        "sources": [_provenance(p) for p in rule.pieces],
    }


def _checked(root: Path, rule: Planned, text: str) -> str:
    """The rule file as the rule reader will read it: within the layer's limits, its front
    matter held to the rule schema (10 naming the piece otherwise)."""
    from mj_core import limits

    from mj_policy.layer import loader as layer_mod

    where = ", ".join(f"{p['file']}:{p['lines'][0]}" for p in rule.pieces)
    data = text.encode("utf-8")
    longest = max(len(line) for line in data.split(b"\n"))
    if len(data) > limits.LAYER[0] or longest > limits.LAYER[1]:
        raise ContractUnmet(
            f"{where}: too large for one rule file ({len(data)} bytes, a line of {longest}; "
            f"a rule holds {limits.LAYER[0]} bytes, {limits.LAYER[1]} a line) — split it, "
            "or import it by hand; nothing was written"
        )
    doc, _, _ = yamlstrict.split_front_matter(text, rule.file)
    layer_mod.close(doc, "rule")
    return text


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


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_policy.layer import init_write
    from mj_policy.layer import skeleton

    root = context.root()
    records = list(context.records())  # every piece read (an upstream error stops here)
    if not options.extend:
        skeleton.refuse_existing(root)  # before the policy is read: 15, as `init` says it
    first = skeleton.hatch_open(root)  # the bootstrap hatch, as `init` keeps it
    adoption = Adoption(root, records)
    created = 0
    for relative in init_write.create(root, extend=options.extend, changed=adoption.changed):
        created += 1
        yield {"kind": "created", "path": relative}
    yield from adoption.write()
    if first:
        yield skeleton.adoption(created, extend=bool(options.extend))


STAGES = {
    "adopt": Stage(_run),
}
