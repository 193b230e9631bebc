"""Doctrines over the provider projections: each target is what `majordomus update` wrote
(projection integrity), and the always-loaded one stays a thin bootstrap (context budget).

Both judge generated text only: a file-mode target without its stamp line, or the region of a
region-mode target — never the host document around a region.
"""

from __future__ import annotations

import shlex

from mj_core.errors import MjError
from mj_core.findings import Finding
from mj_policy.projection import render as projections
from mj_policy.projection import targets
from mj_policy.projection import verdict as projectionverdict
from mj_policy.projection.verdict import STAMP_GREP

from mj_watch.doctor import confinement

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_policy.projection.render import Projection

    from mj_watch.doctor.facts_view import Facts

CATEGORY = "projection"


class Seen:
    """One declared projection as found on disk."""

    __slots__ = ("problem", "projection", "state", "verified")

    def __init__(
        self,
        projection: Projection,
        verified: targets.Verified | None,  # None when missing or malformed
        problem: Finding | None,
        state: str | None = None,  # `update`'s state of it; None when it could not be judged
    ) -> None:
        self.projection = projection
        self.verified = verified
        self.problem = problem
        self.state = state


def _show_stamp(projection: Projection) -> str:
    return STAMP_GREP[projection.mode].format(t=shlex.quote(projection.target))


def inspect(facts: Facts, projection: Projection) -> Seen:
    """The target judged as `update --check` judges it: the file against what `update` would
    write now (`rendered` in the targets fact), worded by `projection.verdict`; against its own
    stamp only when the layer cannot render it (another doctrine says why)."""
    target = projection.target
    told = facts.get("targets")
    seen = (told.get("targets") or {}).get(target) or {"type": "absent"}
    refusal = seen.get("refusal")
    if refusal is not None:
        return Seen(projection, None, confinement.target_finding(target, str(refusal)))
    if seen.get("problem"):
        return Seen(projection, None, _malformed(projection, str(seen["problem"])))
    text = str(seen.get("text") or "") if seen.get("type") == "file" else None
    try:
        state, verified = _state(projection, text, seen.get("rendered"), told.get("policy_file"))
    except MjError as exc:
        return Seen(projection, None, _malformed(projection, exc.message))
    found = projectionverdict.finding(target, projection.mode, state, verified, text == "")
    problem = None if found.level == "OK" else found
    return Seen(projection, verified, problem, state)


def _state(
    projection: Projection, text: str | None, rendered: Any, policy_file: Any
) -> tuple[str, targets.Verified | None]:
    """`update`'s state of the target, and the file against its own stamp (None when there is
    no text to judge)."""
    if not text:
        return targets.MISSING, None
    verified = targets.verify(text, projection.mode, projection.target)
    if isinstance(rendered, dict) and isinstance(policy_file, str):
        made = projections.Rendered(
            projection, str(rendered["generated"]), inputs=str(rendered["inputs"])
        )
        return targets.judge(made, policy_file, text).state, verified
    if verified.state == "no-region":
        return targets.APPEND, verified
    return (targets.CURRENT if verified.state == "ok" else verified.state), verified


def _malformed(projection: Projection, message: str) -> Finding:
    return Finding(
        "FAIL",
        CATEGORY,
        projection.target,
        f"malformed region markers: {message}",
        _show_stamp(projection),
    )


def seen_all(facts: Facts) -> list[Seen]:
    if facts.layer is None:
        return []
    return [inspect(facts, p) for p in planned(facts)]


def planned(facts: Facts) -> list[Projection]:
    """The targets `update` writes, as the targets fact lists them (the rule files included);
    the policy's declared projections for a fact that does not say."""
    assert facts.layer is not None
    told = facts.get("targets").get("targets") or {}
    if not told or not all("projection" in t for t in told.values()):
        return projections.declared(facts.layer.policy.data)
    out = []
    for target, seen in told.items():
        about = seen["projection"]
        found = projections.Projection(
            str(about["provider"]), target, str(about["mode"]), bool(about["always_loaded"])
        )
        found.rule_key = about.get("rule")
        out.append(found)
    return out


def projection_integrity(facts: Facts) -> Iterator[Finding]:
    for seen in seen_all(facts):
        if seen.problem is not None:
            yield seen.problem
        else:
            yield projectionverdict.finding(
                seen.projection.target, seen.projection.mode, targets.CURRENT, None, False
            )
    yield from _orphans(facts)
    yield from _readme_names_agents(facts)


def _orphans(facts: Facts) -> Iterator[Finding]:
    for orphan in facts.get("targets").get("orphans") or []:
        target = str(orphan["target"])
        if orphan.get("intact"):
            message = "no rule projects it any more, yet its provider still loads it — "
            message += "`majordomus update` removes it"
        else:
            message = "no rule projects it any more, and it was edited by hand — "
            message += "`majordomus update --force` removes it"
        yield Finding("FAIL", CATEGORY, target, message, f"head -5 {shlex.quote(target)}")


def _readme_names_agents(facts: Facts) -> Iterator[Finding]:
    text = str(facts.get("targets").get("readme") or "")
    if "AGENTS.md" in text:
        yield Finding("OK", CATEGORY, "README.md", "names AGENTS.md")
        return
    message = "does not name AGENTS.md — point agents at it from the README"
    yield Finding("FAIL", CATEGORY, "README.md", message, "grep -c AGENTS.md README.md")
