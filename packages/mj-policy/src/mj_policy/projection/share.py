"""A target several declared providers share (Codex and OpenCode both read AGENTS.md) is one
projection for all of them: one text, one stamp, written once.

Its providers are named in the table's order (share/providers.yaml), whichever order the
policy lists them, and the first of them lends its template (`projection.templates`); it is
always loaded when any of them loads it, held to the lowest budget among them
(`budgets.limits`), and carries the rules any of them needs inside it. Entries for one target
that disagree on `mode` or `imports` are refused (10), naming both.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet

from mj_policy import providers

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_policy.layer.loader import Layer
    from mj_policy.projection.render import Projection


def merged(layer: Layer, base: list[Projection]) -> list[Projection]:
    """`base` (the policy's entries, in its order) with each shared target made one."""
    groups: dict[str, list[tuple[int, Projection]]] = {}
    for index, projection in enumerate(base):
        groups.setdefault(projection.target, []).append((index, projection))
    return [_one(layer, members) for members in groups.values()]


def _one(layer: Layer, members: list[tuple[int, Projection]]) -> Projection:
    if len(members) == 1:
        return members[0][1]
    _refuse_disagreement(layer, members)
    rank = {name: i for i, name in enumerate(providers.names())}
    ordered = sorted(members, key=lambda m: (rank.get(m[1].provider, len(rank)), m[0]))
    first = ordered[0][1]
    first.providers = tuple(dict.fromkeys(m[1].provider for m in ordered))
    first.always_loaded = any(m[1].always_loaded for m in members)
    return first


def _refuse_disagreement(layer: Layer, members: list[tuple[int, Projection]]) -> None:
    index, first = members[0]
    for other_index, other in members[1:]:
        for key in ("mode", "imports"):
            if getattr(first, key) != getattr(other, key):
                here = layer.policy.where(("projections", index, "target"))
                there = layer.policy.where(("projections", other_index, "target"))
                raise ContractUnmet(
                    f"{here} and {there}: {first.target} is one file for {first.provider} and "
                    f"{other.provider}, declared with a different `{key}` — declare it alike"
                )
