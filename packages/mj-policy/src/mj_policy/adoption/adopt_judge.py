"""`mj-policy adopt-judge`: the project rules `init --import` makes, over the `adopt` fact of
`mj-policy adopt-facts`; every other record of its input passes on.

A judge: it reads its input and never the repository. Each piece not carried already (the
fact's `carried`: by a rule that names it, or by the bootstrap) becomes a rule, pieces of the
same title and text one rule, each with a slug no rule of the layer has (the fact's `taken`).
Every rule file is checked against the rule format before anything is written, so a piece the
format cannot hold (over the layer's size limits) stops the import with 10 and writes no rule.
The rules are one verdict for `mj-policy adopt-write`; each carried piece a `not-imported`
record.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.stream.stage import Stage
from mj_core.yaml import strict as yamlstrict

from mj_policy.adoption import plan as importplan

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_policy.adoption.plan import Planned

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    given = getattr(options, "input", None)
    others, fact = context.beside_fact(given, "adopt", "mj-policy adopt-facts")
    yield from others
    yield from judge(fact)


def judge(fact: Record) -> list[Record]:
    """The verdict of the rules to write (none when no piece needs one), then the carried."""
    pieces = list(fact["pieces"])
    why = {piece_key(p): reason for p, reason in zip(pieces, fact["carried"], strict=True)}
    rules, carried = importplan.plan(pieces, set(fact["taken"]), lambda p: why[piece_key(p)])
    written = [{"file": r.file, "text": checked(r, rule_text(r)), "record": imported(r)}
               for r in rules]  # fmt: skip
    verdict = {"kind": "verdict", "action": "adopt", "rules": written}
    return ([verdict] if written else []) + carried


def piece_key(piece: Record) -> str:
    return f"{piece['file']}:{piece['lines'][0]}-{piece['lines'][1]}"


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


def imported(rule: Planned) -> Record:
    return {
        "kind": "imported",
        "rule": rule.id,
        "path": rule.file,
        "reach": rule.reach,
        "paths": rule.paths,
        "sources": [_provenance(p) for p in rule.pieces],
    }


def checked(rule: Planned, text: str) -> str:
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


STAGES = {"adopt-judge": Stage(run)}
