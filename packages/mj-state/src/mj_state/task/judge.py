"""`check`'s judgement: findings over facts (`mj_state.task.check_facts` gathers them), never the
repository. Each function takes the values it judges; `all_findings` judges a whole `Facts`.

The task is the ledger's (`mj_state.task.state`); the paths findings name come from a `Place`.
"""

from __future__ import annotations

import re
import shlex

from mj_core import clock
from mj_core import paths
from mj_core.errors import MissingArtifact
from mj_core.findings import Finding

from mj_state import identity
from mj_state.ledger import chain
from mj_state.records import questions
from mj_state.task import scope
from mj_state.task import state as taskstate
from mj_state.task.place import Place

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]

_WHERE = r"[^:]+:(\d+):"  # `re.match` compiles it when first asked


class Facts:
    """What `mj-state facts --for check` said, read back from its fact records."""

    __slots__ = ("by", "place", "situation")

    def __init__(self, records: Iterable[Record]) -> None:
        self.by: dict[str, Record] = {}
        for record in records:
            if record.get("kind") == "fact":
                self.by[str(record["fact"])] = record
        found = self.by.get("situation")
        self.situation = taskstate.Situation.from_fact(found) if found else None
        self.place = Place.from_fact(self.get("place"))

    def get(self, name: str) -> Record:
        """The fact `name`; facts without it cannot be judged (12)."""
        found = self.by.get(name)
        if found is None:
            raise MissingArtifact(
                f"check: the facts carry no {name} fact — `mj-state facts --for check`"
            )
        return found


def all_findings(facts: Facts, record: Record) -> Iterator[Finding]:
    """Every finding about the active task `record` (as the ledger records it)."""
    place, situation = facts.place, facts.situation
    assert situation is not None
    git, told = facts.get("git"), facts.get("questions")
    yield state(record, str(git.get("label")), git.get("here") or {})
    if situation.copy_problem is not None:
        yield unreadable_copy(place, situation.copy_problem)
    yield from taskstate.copy_findings(place, situation)
    yield from scope_findings(place, record, list(git.get("touched") or []), git)
    interval = str(facts.get("profile").get("interval"))
    yield checkpoint(place, record, interval, int(facts.get("clock").get("now") or 0))
    found = taskstate.blockers(
        place, str(record["id"]), situation, told.get("text"), told.get("problem")
    )
    yield from blockers(place, str(record["id"]), found)
    yield from question_lines(place, told.get("text"), told.get("problem"))
    ledger = facts.get("ledger")
    yield from ledger_lines(place, int(ledger.get("count") or 0), ledger.get("problems") or [],
                            situation)  # fmt: skip
    yield from (
        Finding.from_record(r) for r in facts.get("knowledge-records").get("findings") or []
    )
    yield from remote_overlap(facts, list(record["scope"]))


def remote_overlap(facts: Facts, scope: list[str]) -> Iterator[Finding]:
    """Other clones' claims (as of the last sync) that meet the task's scope: WARN each."""
    told = facts.by.get("remote-mirror")
    if told is None:
        return
    from mj_state import mirror

    yield from mirror.overlap_findings(told, scope)


def foreign(place: Place, situation: taskstate.Situation) -> Finding | None:
    """The report of a task (the ledger's or, with no ledger task, the copy's) that belongs to
    another checkout; nothing is enforced from it here. None when there is none."""
    where: object
    task: object
    if situation.foreign and situation.task is not None:
        where = situation.task.fields.get("worktree_id")
        task = situation.task.id
        line = situation.task.started_line
        reproduce = f"sed -n '{line}p' {place.ledger}; git rev-parse --git-dir --git-common-dir"
    elif situation.copy_foreign and situation.copy is not None:
        where = situation.copy.get("worktree_id") or situation.copy.get("worktree")
        task = situation.copy.get("id")
        reproduce = f"grep -n '^worktree' {place.copy}"
    else:
        return None
    message = (
        f"different_context — this task belongs to the checkout {where}; "
        "nothing is enforced from it here"
    )
    return Finding("WARN", "state", str(task), message, reproduce)


def unreadable_copy(place: Place, message: str) -> Finding:
    match = re.match(_WHERE, message)
    line = match.group(1) if match else "1"
    return Finding("FAIL", "state", place.copy, message, f"sed -n '{line}p' {place.copy}")


def state(record: Record, found: str, now: Record) -> Finding:
    """The divergence label `found` of the task's recorded head against `now` (git's answer)."""
    task, head = str(record["id"]), str(record["head"])
    if found in ("exact", "advanced"):
        return Finding("OK", "state", task, f"{found} (head {head[:7]})")
    if found == "diverged":
        return Finding(
            "FAIL",
            "state",
            task,
            f"diverged — recorded head {head[:7]} is not an ancestor of HEAD "
            f"{str(now.get('head'))[:7]}",
            f"git merge-base --is-ancestor {head} HEAD || echo diverged",
        )
    differs = identity.differing(record, now)
    what = ", ".join(f"{k} {record[k]} → {now[k]}" for k in differs)
    return Finding(
        "FAIL",
        "state",
        task,
        f"different_context — {what}",
        "git rev-parse --path-format=absolute --git-common-dir --show-toplevel --abbrev-ref HEAD",
    )


def scope_findings(
    place: Place, record: Record, touched: list[str], writes: Record | None = None
) -> Iterator[Finding]:
    """A FAIL per touched path outside the claims, `.ai/` and the tool's own writes (`writes`:
    `scope.writes`); a file a command writes but not as it writes it says which command."""
    claims = list(record["scope"])
    head = str(record["head"])
    own = list((writes or {}).get("own") or [])
    unlike = {str(path): str(command) for path, command in (writes or {}).get("unlike") or []}
    outside = scope.outside(touched, claims, scope.always_allowed(place.policy), own)
    shown = ", ".join(claims)
    for path in outside:
        quoted = shlex.quote(path)
        yield Finding(
            "FAIL",
            "scope",
            path,
            f"outside claimed scope ({shown}){_unlike(unlike.get(path))}"
            + paths.unclaimed_why(path),
            f"git status --porcelain -- {quoted}; git diff --name-only {head[:7]} HEAD -- {quoted}",
        )
    if not outside:
        mine = f" ({len(own)} written by majordomus as it writes them)" if own else ""
        message = f"{len(touched)} file(s) touched, all within scope{mine}"
        yield Finding("OK", "scope", shown, message)


def _unlike(command: str | None) -> str:
    if command is None:
        return ""
    return f"; `{command}` writes this file, but not as it is now (edited, or stale)"


def recorded_scope(place: Place, situation: taskstate.Situation) -> Iterator[Finding]:
    """A WARN for this checkout's ended task whose finish recorded paths outside its scope
    (`finish --outcome blocked|no_match|failed`): abandoning is honest, and stays visible."""
    own = situation.own
    if own is None or own.active:
        return
    for value in situation.scan.values:
        if type(value) is not dict or value.get("event") != "task.finished":
            continue
        listed = value.get("scope_violations")
        if value.get("task_id") != own.id or not isinstance(listed, list) or not listed:
            continue
        more = value.get("scope_violations_more")
        total = len(listed) + (more if isinstance(more, int) else 0)
        shown = ", ".join(str(p) for p in listed[:5]) + (" …" if total > 5 else "")
        claims = ", ".join(str(c) for c in own.fields.get("scope") or [])
        message = (
            f"ended {value.get('outcome')} with {total} path(s) outside its claimed scope "
            f"({claims}), recorded on its finish: {shown}"
        )
        reproduce = f"majordomus history --task {own.id} --event task.finished"
        yield Finding("WARN", "scope", own.id, message, reproduce)


def checkpoint(place: Place, record: Record, interval: str, now: int) -> Finding:
    task = str(record["id"])
    limit = clock.parse_duration(interval) or 15 * 60
    last = clock.parse_iso(str(record["checkpoint_at"]))
    age = now - last if last is not None else limit + 1
    message = f"{_ago(age)} ago, interval {interval}"
    if age <= limit:
        return Finding("OK", "checkpoint", task, message)
    return Finding(
        "WARN",
        "checkpoint",
        task,
        f"{message} — run `majordomus check --checkpoint` or `majordomus checkpoint`",
        f"grep -n '^checkpoint_at:' {place.copy}; date -u +%Y-%m-%dT%H:%M:%SZ",
    )


def _ago(seconds: int) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{max(seconds, 0)}s"


def blockers(place: Place, task: str, found: questions.Blockers) -> Iterator[Finding]:
    """One FAIL per question open for the task (by the file or the ledger), one per way the
    file cannot be trusted to say so; OK only when both agree that none is open."""
    target, ledger = place.questions, place.ledger
    for question, where in found.open:
        quoted = shlex.quote(question)
        absent = shlex.quote(f"{target}: not shown there")
        grep = f"grep -nF -e {quoted} {ledger}; grep -nF -e {quoted} {target} || echo {absent}"
        yield Finding("FAIL", "blockers", where, f'"{question}" unresolved', grep)
    for where, message in found.problems:
        missing = shlex.quote(f"{target}: missing")
        reproduce = (
            f"{{ cat -v {target} 2>/dev/null || echo {missing}; }} | head -n 40; "
            f"grep -nF -e '\"question.' {ledger}"
        )
        yield Finding("FAIL", "blockers", where, message, reproduce)
    if not found.open and not found.problems:
        yield Finding("OK", "blockers", task, "none open")


def question_lines(place: Place, text: str | None, problem: str | None) -> Iterator[Finding]:
    """Every line of the question file in neither shape (or a file that cannot be read)."""
    target = place.questions
    if problem is not None:
        reproduce = f"head -c 300 {target} | cat -v"
        yield Finding("FAIL", "questions", f"{target}:1", f"{target} {problem}", reproduce)
        return
    entries, malformed = questions.parse(text or "")
    for bad in malformed:
        yield Finding(
            "FAIL",
            "questions",
            f"{target}:{bad.lineno}",
            "not one of the two question line shapes",
            f"sed -n '{bad.lineno}p' {target} | cat -v",
        )
    if not malformed:
        yield Finding("OK", "questions", target, f"{len(entries)} entries, every line parses")


def ledger_lines(
    place: Place, count: int, problems: list[Any], situation: taskstate.Situation
) -> Iterator[Finding]:
    """The task's own lines (from its newest `task.started` on; every line when none was
    started): each malformed one, and the hash chain over them and the tip. The whole ledger,
    every line and every link, is doctor's, watch's and `history --validate`'s: a hook's
    `check` reads what the task wrote, not the ledger's whole history."""
    shown = place.ledger
    for number, reason in problems:
        yield Finding("FAIL", "ledger", f"{shown}:{number}", reason, f"sed -n '{number}p' {shown}")
    yield from chain.findings(situation.scan.chain, shown)
    if not problems and situation.scan.chain.ok:
        message = f"the task's {count} line(s) each an object with ts and event, and chained"
        yield Finding("OK", "ledger", shown, message)
