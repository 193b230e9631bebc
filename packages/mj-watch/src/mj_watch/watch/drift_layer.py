"""Drift in what the task works with: projections, stores, logs, prompt assets, records.

Doctor's own judges are reused (projection integrity and currency, retention caps) and
`check`'s line parsers (questions, ledger); the rest compares a file with what its owner
expects: decisions' attribution, prompt tokens, and the worktree a checkpoint or handover was
written in.
"""

from __future__ import annotations

import shlex

from mj_core.findings import Finding
from mj_state import history
from mj_state.records import decisions
from mj_state.task import judge

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mj_watch.watch.facts import WatchFacts


def policy(facts: WatchFacts) -> Iterator[Finding]:
    """A projection the layer now gives other text or other inputs than its stamp records (the
    policy, a template or a rule changed under it): `update` would rewrite it. Judged as
    `update --check` and doctor judge it; an edit that changes no generated text is no drift."""
    from mj_policy.projection import targets

    from mj_watch.doctrine import (
        projections as projection_checks,  # doctor's judge of projections, shared
    )

    for seen in projection_checks.seen_all(facts):
        if seen.state in (targets.STALE, targets.RESTAMP) and seen.problem is not None:
            yield seen.problem.replace(category="policy", code=None)


def projection(facts: WatchFacts) -> Iterator[Finding]:
    """Doctor's projection integrity; a missing target is shown by a command that succeeds."""
    from mj_policy.projection import targets

    from mj_watch.doctrine import projections as projection_checks

    for seen in projection_checks.seen_all(facts):
        problem = seen.problem
        if seen.state in (targets.STALE, targets.RESTAMP):
            continue  # the policy's drift, reported there
        if problem is not None and seen.projection.target is not None and problem.code == 12:
            target = shlex.quote(seen.projection.target)
            absent = shlex.quote(f"{seen.projection.target}: missing")
            reproduce = f"ls -l {target} 2>/dev/null || echo {absent}"
            p = problem
            problem = Finding(p.level, p.category, p.subject, p.message, reproduce, p.code)
        if problem is not None:
            yield problem


def retention(facts: WatchFacts) -> Iterator[Finding]:
    from mj_watch.doctrine.retention import retention_caps  # doctor's judge of the caps, shared

    yield from retention_caps(facts)


def questions(facts: WatchFacts) -> Iterator[Finding]:
    told = facts.get("questions")
    yield from judge.question_lines(facts.place, told.get("text"), told.get("problem"))


def ledger(facts: WatchFacts) -> Iterator[Finding]:
    """`history --validate`'s judgement (each line, the whole hash chain, the tip), over the
    scan watch has already made."""
    yield from (f for f in history.validate(facts.loaded, facts.scan) if f.level != "OK")


def decision_log(facts: WatchFacts) -> Iterator[Finding]:
    told = facts.get("decisions")
    shown = str(told.get("shown"))
    text = told.get("text")
    for entry in decisions.parse(text) if text is not None else []:
        missing = decisions.lacking(entry)
        if missing:
            message = f'"{entry.title}" lacks {", ".join(missing)}'
            end = entry.line + 6
            reproduce = f"sed -n '{entry.line},{end}p' {shlex.quote(shown)}"
            yield Finding("WARN", "decisions", f"{shown}:{entry.line}", message, reproduce)


def foreign_records(facts: WatchFacts) -> Iterator[Finding]:
    """Checkpoints and handovers in this checkout's state written in another worktree (the
    facts stage passes on the front matter of each one not written here)."""
    from mj_state import identity

    told = facts.get("records")
    here = dict(told.get("here") or {})
    for other in told.get("others") or []:
        front = dict(other.get("front") or {})
        if not identity.same_checkout(front, here):
            worktree = front.get("worktree_id") or front.get("worktree")
            shown = str(other.get("shown"))
            message = f"{other.get('kind')} written in {worktree}, not in this worktree"
            reproduce = f"grep -n '^worktree' {shlex.quote(shown)}"
            yield Finding("FAIL", "records", shown, message, reproduce)
