"""Drift in what the task works with: projections, stores, logs, prompt assets, records.

Doctor's own judges are reused (projection integrity, retention caps) and `check`'s line
parsers (questions, ledger); the rest compares a file with what its owner expects: the
policy hash stamped on each projection, decisions' attribution, prompt tokens, and the
worktree a checkpoint or handover was written in.
"""

from __future__ import annotations

import shlex

from mj_core.findings import Finding
from mj_state import decisions
from mj_state import history
from mj_state import judge

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mj_watch.watchfacts import WatchFacts


def policy(facts: WatchFacts) -> Iterator[Finding]:
    """A projection stamped with a policy hash that is not the policy (and profiles) on disk."""
    from mj_watch import projection_checks  # doctor's judge of projections, shared

    stamp_fact = facts.get("stamp")
    wanted = str(stamp_fact.get("policy_sha256"))
    policy_file, profiles = str(stamp_fact.get("policy_file")), str(stamp_fact.get("profiles"))
    digest = f"cat {shlex.quote(policy_file)} {shlex.quote(profiles)}/*.yaml | sha256sum"
    for seen in projection_checks.seen_all(facts):
        stamp = seen.verified.stamp if seen.verified is not None else None
        if stamp is None or wanted.startswith(stamp.policy):
            continue
        target = seen.projection.target
        message = (
            f"stamped with policy {stamp.policy}, the policy on disk is {wanted[:12]} "
            "— `majordomus update` regenerates it"
        )
        shown = f"grep -nF -e {stamp.policy} {shlex.quote(target)}"
        yield Finding("FAIL", "policy", target, message, f"{shown}; {digest} | cut -c1-12")


def projection(facts: WatchFacts) -> Iterator[Finding]:
    """Doctor's projection integrity; a missing target is shown by a command that succeeds."""
    from mj_watch import projection_checks

    for seen in projection_checks.seen_all(facts):
        problem = seen.problem
        if problem is not None and seen.projection.target is not None and problem.code == 12:
            target = shlex.quote(seen.projection.target)
            absent = shlex.quote(f"{seen.projection.target}: missing")
            reproduce = f"ls -l {target} 2>/dev/null || echo {absent}"
            p = problem
            problem = Finding(p.level, p.category, p.subject, p.message, reproduce, p.code)
        if problem is not None:
            yield problem


def retention(facts: WatchFacts) -> Iterator[Finding]:
    from mj_watch.retention import retention_caps  # doctor's judge of the caps, shared

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
