"""`mj-watch finish`: the finish contract judged over `mj-state facts --for finish`.

A judge: it reads the one `finish` fact on stdin (or a file), and the `verification` fact
`mj-state verification` adds, and never the repository. The record's trust is judged first
(`trust`): a record that cannot be trusted fails whatever the outcome claimed. Every contract
line is a finding; a met contract (not under `--check`) ends in a `verdict` record
that `mj-state record` writes; a refused one in a `record` naming the blocking doctrines.
`--check` is inert (exit 0) with no active task or a finished one (naming, as INFO, commits no
verification covered), and refuses a copy that contradicts the ledger. With no active task a
finish is refused: 12 with none, 15 for a task of another checkout or one already finished.
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.findings import Finding
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage

from mj_watch.finish import contract
from mj_watch.finish import trust

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    records = list(context.records(options.input))
    fact = _the_fact(records)
    foreign = _foreign_state(records)
    if foreign:
        yield from (finding.record() for finding in foreign)
        action = "checked" if fact.get("check") else "refused"
        yield {"kind": "record", "action": action, "blocking": ["majordomus.state-consistency"]}
        return
    if fact.get("inert"):
        yield from _inert(str(fact["inert"]))
        return
    distrust = trust.findings(fact["trust"])
    if fact.get("task") is None:
        yield from _without_task(fact, distrust)
        return
    yield from _judge(fact, distrust, _ran(records))


def _foreign_state(records: list[Record]) -> list[Finding]:
    """The state judged not this checkout's (`mj_state.state_id`): nothing it says is judged."""
    told = [r for r in records if r.get("kind") == "fact" and r.get("fact") == "state-identity"]
    if not told:
        return []
    from mj_state import state_id as stateid

    return [f for f in stateid.findings(told[0]) if f.level == "FAIL"]


def _the_fact(records: Any) -> Record:
    found = [r for r in records if r.get("kind") == "fact" and r.get("fact") == "finish"]
    if len(found) != 1:
        raise MissingArtifact(
            "finish: the facts carry no finish fact — `mj-state facts --for finish`"
        )
    fact: Record = found[0]
    return fact


def _ran(records: list[Record]) -> Record:
    """What the verification stage found: the run, or why nothing could run (none: it did
    not run, which `verification_ran` fails)."""
    told = [r for r in records if r.get("kind") == "fact" and r.get("fact") == "verification"]
    if len(told) > 1:
        raise MissingArtifact("finish: the facts carry more than one verification fact")
    if not told:
        return {}
    if told[0].get("problem"):
        return {"verify_problem": told[0]["problem"]}
    return {"verify": told[0].get("verify")}


def _without_task(fact: Record, distrust: list[Finding]) -> Iterator[Record]:
    """No active task here by the ledger: a copy that says otherwise fails (10); otherwise
    `--check` is inert (reporting commits no verification covered) and a finish is refused."""
    from mj_state.task import state as taskstate

    if distrust:
        yield from (finding.record() for finding in distrust)
        action = "checked" if fact.get("check") else "refused"
        yield {"kind": "record", "action": action, "blocking": ["majordomus.state-freshness"]}
        return
    situation = taskstate.Situation.from_fact(fact["situation"])
    if fact.get("check"):
        yield from (f.record() for f in _uncovered(situation, fact.get("commits") or []))
        from mj_state.task import judge
        from mj_state.task.place import Place

        place = Place.from_fact(fact["place"])
        yield from (f.record() for f in judge.recorded_scope(place, situation))
        yield from _inert(_reason(situation))
        return
    if situation.own is None and not situation.foreign:
        raise MissingArtifact(f"finish: {_reason(situation)}")
    raise Refused(f"finish: {_reason(situation)}")


def _reason(situation: Any) -> str:
    if situation.foreign:
        where = situation.task.fields.get("worktree_id")
        return (
            f"task {situation.task.id} belongs to the checkout {where}; "
            "nothing enforced or written here"
        )
    own = situation.own
    if own is None:
        return "no task in this checkout — run `majordomus start`"
    return f"task {own.id} already finished ({own.outcome}); nothing written"


def _uncovered(situation: Any, commits: list[list[str]]) -> Iterator[Finding]:
    """INFO for each commit since the finished task's start whose tree no verification of the
    task covered (the verified tree is recorded on `task.finished`)."""
    own = situation.own
    if own is None:
        return
    trees = {
        str((value.get("verify") or {}).get("tree"))
        for value in situation.scan.values
        if type(value) is dict
        and value.get("event") == "task.finished"
        and value.get("task_id") == own.id
    }
    base = own.start_head
    for commit, tree in commits:
        if tree not in trees:
            message = (
                f"commit {commit[:7]} (tree {tree[:7]}) was made after {own.id} finished; "
                "no verification covered its tree"
            )
            reproduce = (
                f"git log --format='%h %T' {base[:7]}..HEAD; "
                f"majordomus history --task {own.id} --event task.finished --json"
            )
            yield Finding("INFO", "verification", commit[:7], message, reproduce)


def _inert(reason: str) -> Iterator[Record]:
    yield Finding("INFO", "task", "finish --check", reason).record()
    yield {"kind": "record", "action": "checked", "blocking": []}


def _judge(fact: Record, distrust: list[Finding], ran: Record) -> Iterator[Record]:
    facts = {**fact["contract"], **ran, "trust": [finding.record() for finding in distrust]}
    lines = contract.evaluate(facts)
    yield from (line.finding.record() for line in lines)
    blocking = contract.blocking(lines)
    if SCOPE in blocking:
        yield _ways_out(fact).record()
    if fact.get("check") or blocking:
        action = "checked" if fact.get("check") else "refused"
        yield {"kind": "record", "action": action, "blocking": blocking}
        return
    yield {
        "kind": "verdict",
        "action": "finish",
        "task": fact["task"],
        "outcome": fact["outcome"],
        "contract": contract.verdicts(lines),
        "run": facts.get("verify"),
        "note_text": fact.get("note_text") or "",
        "scope_violations": contract.recorded(lines, facts),
    }


SCOPE = "majordomus.scope-integrity"
_END = (
    "`majordomus finish --outcome failed` (or `--outcome blocked`, `--outcome no_match`, with "
    "a note) records what lies outside on the finish; `majordomus handover --close` hands the "
    "task over"
)


def _ways_out(fact: Record) -> Finding:
    """What a task whose work left its scope can do instead of claiming it done."""
    task = str(fact["task"]["id"])
    if fact.get("check"):
        said = (
            "a push while the task is active sends only work within its claim: take the change "
            f"out of the commits pushed, or end the task first — {_END}"
        )
    else:
        said = f"to end the task without claiming it done: {_END}"
    return Finding("INFO", "scope", task, said)


STAGES = {"finish": Stage(run)}
