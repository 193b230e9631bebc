"""The state side of `finish`: the facts the contract is judged on, and the write.

`facts` gathers what `mj_watch.finish.contract` judges (JSON-native), the task taken from the
ledger; `mj_state.finish.verification` is the verification the `verification` stage runs.
`record` writes only after every line passed: the completion note, `task.finished` (with the
verified tree), then the task's copy with its outcome and refreshed head and working tree.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mj_core import files
from mj_core import limits
from mj_core.errors import MissingArtifact
from mj_core.errors import UsageError
from mj_core.git import where as gitwhere
from mj_core.yaml import strict as yamlstrict
from mj_policy.layer.loader import Layer

from mj_state import identity
from mj_state.ledger import store as ledger
from mj_state.task import scope
from mj_state.task import state as taskstate
from mj_state.task.place import Place

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import IO
    from typing import Any

    Record = dict[str, Any]


def facts(
    layer: Layer,
    task: Record,
    outcome: str,
    *,
    check_only: bool,
    situation: taskstate.Situation,
    pushes: list[tuple[str, str, str, str]] | None = None,
    altered: list[str] | None = None,
) -> Record:
    """Scope and state always; blockers, note, decisions and profile only
    for a real finish. `task` is the task as the ledger records it. A finish judges the files
    the task touched (the working tree's and its commits'); `--check` the commits a push sends
    (`pushes`: git's pre-push lines; None: by hand, the task's commits up to HEAD). Either way
    `altered`, the files of the rules it started under that changed since (`task.rules`),
    count as touched."""
    root = layer.root
    base = str(task["head"])
    if check_only:
        here, touched, writes, pushed = _pushed(layer, base, pushes)
    else:
        with gitwhere.Snapshot(root, base) as pending:  # git's three answers at once
            where, status, changed = pending.result()
        here = identity.from_where(root, *where)
        touched = list(dict.fromkeys([*status, *changed]))  # what `scope.touched` gives
        writes = scope.writes(layer, base, here.get("head"), status, changed)
        pushed = None
    touched = list(dict.fromkeys([*touched, *(altered or [])]))
    policy = layer.policy.data
    place = Place.of(layer)
    allowed = scope.always_allowed(policy)
    out: Record = {
        "task_id": str(task["id"]),
        "outcome": outcome,
        "check_only": check_only,
        "finish_requires": list(policy["verification"]["finish_requires"]),
        "required_sections": list(policy["handover"]["required_sections"]),
        "scope": list(task["scope"]),
        "touched": touched,
        "allowed": allowed,  # paths always writable; the judge names what lies outside
        "own": writes["own"],  # files majordomus wrote, as it writes them
        "unlike": writes["unlike"],  # files it writes, edited since or left stale
        "base": base,
        "pushed": pushed,  # `--check`: which commits were judged, and how to list them
        "state": {"label": identity.label(root, task, here), "recorded_head": str(task["head"])},
        "profile": {},
        "paths": {
            "questions": place.questions,
            "decisions": place.decisions,
        },
    }
    if not check_only:
        out.update(_acceptance(layer, task, here, situation))
    return out


def _pushed(
    layer: Layer, base: str, pushes: list[tuple[str, str, str, str]] | None
) -> tuple[Record, list[str], Record, Record]:
    """`--check`: where HEAD is, the files the commits pushed change, the tool's own writes
    among them (as each pushed commit holds them), and what was judged. Where HEAD is and
    the commits pushed are asked of git at once."""
    from mj_core.git import questions as git

    from mj_state.finish import push_range as pushrange
    from mj_state.task import own_writes as ownwrites

    git.ahead([(gitwhere.WHERE_ARGS, layer.root)])
    sent = pushes if pushes is not None else pushrange.by_hand("HEAD")
    judged = pushrange.judged(layer.root, base, sent)
    here = identity.from_where(layer.root, *gitwhere.where(layer.root))
    touched = list(dict.fromkeys(p for _, files in judged for p in files))
    writes = ownwrites.recognise(layer, base, [(tip, files) for tip, files in judged])
    refs = ", ".join(ref for ref, local, _, _ in sent if local.strip("0")) or "nothing"
    what = f"the commits pushed ({refs})" if pushes is not None else "the task's commits"
    tips = " ".join(tip[:12] for tip, _ in judged) or "HEAD"
    reproduce = f"git log --format='%h %s' --name-only {tips} --not {base[:12]}"
    return here, touched, writes, {"what": what, "reproduce": reproduce}


def _acceptance(layer: Layer, task: Record, here: Record, situation: taskstate.Situation) -> Record:
    from mj_state.records import questions  # the files a real finish reads, not `--check`'s

    text, problem = questions.read(layer.state)
    found = taskstate.blockers(Place.of(layer), str(task["id"]), situation, text, problem)
    profile = layer.profile(str(task["profile"])).data.get("verification") or {}
    named, unrecorded = _decided(layer, str(task["id"]), situation)
    return {
        "profile": {key: bool(value) for key, value in profile.items()},
        "blockers": [{"where": where, "question": q} for q, where in found.open],
        "question_problems": [{"where": where, "message": m} for where, m in found.problems],
        "decision_recorded": named,
        "decision_unrecorded": unrecorded,
        "note": newest_handover(layer, task, here),
    }


def _decided(layer: Layer, task: str, situation: taskstate.Situation) -> tuple[bool, list[str]]:
    """(an entry of decisions.md names `task` and has its `decision.recorded` line, the places
    of those naming it without one): an entry written by hand is no decision the tool recorded
    (`mj_state.records.pairs`, as doctor and `recover` pair them)."""
    from mj_state.records import decisions
    from mj_state.records import pairs as recordpairs

    try:
        text = decisions.path(layer.state).read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return False, []
    entries = [e for e in decisions.parse(text) if e.fields.get("Task") == task]
    gaps = recordpairs.decision_gaps(text, situation.scan.values)
    lacking = {g.where for g in gaps if g.action == "set-aside"}
    places = [f"{decisions.NAME}:{e.line}" for e in entries]
    unrecorded = [p for p in places if p in lacking]
    return len(unrecorded) < len(places), unrecorded


def newest_handover(layer: Layer, task: Record, here: Record) -> Record:
    """The newest handover of this worktree and branch that names the task."""
    from mj_state.records import resolve

    for found, front, body in resolve.scan(layer.root, layer.state, "handover", here):
        if front.get("task_id") == task["id"] and identity.same_checkout(front, here):
            return note_facts(f"handover {found.name}", layer.relative(found), body)
    return {"source": None, "path": None, "sections": []}


def note_facts(source: str, shown: str, body: str) -> Record:
    from mj_state.finish import substance
    from mj_state.records import bodies

    present = substance.said(bodies.live_sections(body))
    return {"source": source, "path": shown, "sections": present}


def read_note(layer: Layer, argument: str, stdin: IO[bytes] | None = None) -> tuple[Record, str]:
    """`--note <file>`: an input document, read from wherever it is (`-`: standard input); it
    must be a readable regular file (CLI-REFERENCE Decision 2) within `limits.NOTE`. Its
    optional YAML block is kept."""
    if argument == "-":
        stream = stdin if stdin is not None else sys.stdin.buffer
        text = yamlstrict.decode(files.read_stream(stream, "<stdin>", limits.NOTE), "<stdin>")
        shown = "-"
    else:
        target = Path(argument)
        if not target.exists():
            raise MissingArtifact(f"--note {argument}: no such file")
        if not target.is_file():
            raise UsageError(f"--note {argument}: not a regular file")
        text = yamlstrict.read_text(target, argument, limits.NOTE)
        shown = argument
    body = text
    if text.startswith("---\n") and "\n---\n" in text[4:]:
        body = text[4:].split("\n---\n", 1)[1]
    return note_facts(f"--note {shown}", shown, body), text


def checkpoints(layer: Layer, task_id: str) -> int:
    """The ledger's `task.checkpoint` lines of `task_id` (read from the lines that can name it)."""
    from mj_state.ledger import named as ledgernamed

    return sum(
        1
        for line in ledgernamed.lines(ledger.path(layer.state), task_id)
        if line.record
        and line.record.get("event") == "task.checkpoint"
        and line.record.get("task_id") == task_id
    )
