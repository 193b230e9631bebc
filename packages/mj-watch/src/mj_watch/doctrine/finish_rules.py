"""The finish doctrines as registry validators: each judges its contract line for the task here.

`finish` evaluates the whole contract at once (`mj_watch.finish.judge`); these validators let the
doctrine machinery (`doctrine`, `check --rule`) run one line alone over the active task, as an
outcome of `completed` would be judged without a verification command. With no active task of
this checkout there is nothing to judge. `decision_records` is the advisory check over the
decision log: an entry that cannot be attributed (no Task, Head or Why) is reported.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mj_watch.doctor.facts_view import Facts

DECISIONS = ".ai/local/state/decisions.md"


def _contract_line(facts: Facts, key: str) -> Iterator[Finding]:
    from mj_state.finish import steps as finishing
    from mj_state.task import state as taskstate

    from mj_watch.finish import contract

    if facts.layer is None:
        return
    try:
        situation = taskstate.read(facts.layer)
        task = situation.active_record()
        if task is None:
            return
        gathered = finishing.facts(
            facts.layer, task, "completed", check_only=False, situation=situation
        )
    except MjError:
        return  # an unreadable task or profile is the state check's finding, not this one's
    judge = contract.JUDGES.get(key) or contract.EXTRAS[key]
    if key in contract.EXTRAS and not gathered["profile"].get(key):
        profile = task["profile"]
        yield Finding("INFO", judge.category, str(task["id"]), f"profile {profile} waives it")
        return
    yield contract.line(key, judge, gathered).finding


def verification_ran(facts: Facts) -> Iterator[Finding]:
    yield from _contract_line(facts, "verification_ran")


def state_freshness(facts: Facts) -> Iterator[Finding]:
    yield from _contract_line(facts, "state_updated")


def blocker_resolution(facts: Facts) -> Iterator[Finding]:
    yield from _contract_line(facts, "no_open_blockers")


def note_present(facts: Facts) -> Iterator[Finding]:
    yield from _contract_line(facts, "note_present")


def regression_test(facts: Facts) -> Iterator[Finding]:
    yield from _contract_line(facts, "regression_test_required")


def decision_record(facts: Facts) -> Iterator[Finding]:
    yield from _contract_line(facts, "decision_record_required")


def obligations_covered(facts: Facts) -> Iterator[Finding]:
    """The active task's promised obligations, judged as a `completed` finish would be (its
    verification not run: a `verify` obligation shows as unsettled)."""
    from mj_core.git import questions as git
    from mj_state.task import obligations
    from mj_state.task import state as taskstate

    from mj_watch.finish import contract

    if facts.layer is None:
        return
    try:
        task = taskstate.read(facts.layer).active_record()
        if task is None:
            return
        entries = obligations.facts(facts.layer, task, git.head(facts.layer.root) or "")
    except MjError:
        return  # an unreadable task is the state check's finding, not this one's
    subject = str(task["id"])
    if not entries:
        yield Finding("INFO", "obligations", subject, "the task promised none (start --requires)")
        return
    gathered = {"task_id": subject, "outcome": "completed", "obligations": entries}
    yield contract.line("obligations_covered", contract.OBLIGATIONS, gathered).finding


def decision_records(facts: Facts) -> Iterator[Finding]:
    """Entries of the decision log lacking Task, Head or Why (advisory: WARN under doctor)."""
    from mj_state.records import decisions

    text = facts.get("decisions").get("text")
    if text is None:
        return
    entries = decisions.parse(text)
    flagged = 0
    for entry in entries:
        lacking = decisions.lacking(entry)
        if lacking:
            flagged += 1
            message = f"{entry.title!r} lacks {', '.join(lacking)} — no check can attribute it"
            reproduce = f"sed -n '{entry.line},{entry.line + 6}p' {DECISIONS}"
            yield Finding("FAIL", "decisions", f"{DECISIONS}:{entry.line}", message, reproduce)
    if not flagged:
        yield Finding("OK", "decisions", DECISIONS, f"{len(entries)} entries, all attributed")


def record_pairs(facts: Facts) -> Iterator[Finding]:
    """Each entry of the decision log and the question file with its ledger line, and each such
    line with its entry (`mj_state.records.pairs`): a gap is a FAIL `recover records` repairs."""
    told = facts.facts.get("record-pairs")
    if not told:
        return
    for gap in told["gaps"]:
        where = str(gap["where"])
        shown = where if where.startswith(".ai/") else f".ai/local/state/{where}"
        fix = (
            ""
            if gap["action"] == "report"
            else f" — `majordomus recover records` will {gap['action']} it"
        )
        yield Finding(
            "FAIL", "records", shown, f"{gap['message']}{fix}", "majordomus recover records --check"
        )
    if not told["gaps"]:
        yield Finding(
            "OK",
            "records",
            ".ai/local/state",
            f"{told['records']} ledger lines, each with its entry",
        )
