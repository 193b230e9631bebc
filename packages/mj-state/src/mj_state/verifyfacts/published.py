"""Every clone's ledger and claims as a repository holds them under `refs/majordomus/` (a CI
clone that fetched them), read for `verify`.

A ledger ref is walked commit by commit (`mj_state.remote.segment.walk`) and judged one chain
that only grew (`segment.continues`: a problem names the commit and the line). From its lines,
the tasks: each `task.started` (id, scope, the head it started at) and each `task.finished`
(outcome, the verification record with its tree, the head it was recorded at), with the line's
number in the clone's ledger; each `hook.unjudged` (a client hook that failed open), with
the task active then; and the tree of each `hook.passed` (the pre-commit hook's pass). Claims
are read as `sync` reads them (`remote.reading`): a ref that is not well formed is a problem,
never read.
"""

from __future__ import annotations

from mj_core import line_hash as linehash
from mj_core.stream import jsonl

from mj_state.remote import layout
from mj_state.remote import reading
from mj_state.remote import segment
from mj_state.remote import store

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

EVENTS = ("task.started", "task.finished", "hook.unjudged", "hook.passed")
UNTASKED = ("hook.unjudged", "hook.passed")  # lines a hook may write with no task active


def read(git_dir: Path) -> Record:
    known = reading.read(git_dir, "")
    ledgers = []
    for name, _oid, kind in store.refs(git_dir):
        parsed = layout.parse(name)
        if parsed is None or parsed[0] != "ledger" or kind != "commit":
            continue
        walked = segment.walk(git_dir, name)
        ledgers.append(_ledger(name, parsed[1], walked))
    claims = [_claim(c) for c in known.claims if c["claim"]["what"]["type"] == "task"]
    problems = [p for p in known.problems if "/ledger/" not in str(p["ref"])]
    return {"ledgers": ledgers, "claims": claims, "problems": problems}


def _ledger(ref: str, clone: str, walked: list[Record]) -> Record:
    started: list[Record] = []
    finished: list[Record] = []
    unjudged: list[Record] = []
    passes: list[Record] = []
    number = 0
    active = None  # the task started last and not finished yet: the one a hook line is of
    every = [raw for step in walked for raw in step["lines"]]
    for step in walked:
        for raw in step["lines"]:
            number += 1
            event = _event(raw)
            if event is None:
                continue
            if event["event"] == "hook.unjudged":
                unjudged.append(_unjudged(event, number, active))
                continue
            if event["event"] == "hook.passed":
                if type(event.get("tree")) is str:
                    passes.append({"tree": event["tree"], "line": number})
                continue
            row = {"task_id": event["task_id"], "line": number, "head": event.get("head")}
            active = event["task_id"] if event["event"] == "task.started" else None
            if event["event"] == "task.started":
                scope = event.get("scope")
                row["scope"] = [str(s) for s in scope] if type(scope) is list else []
                started.append(row)
            else:
                verify = event.get("verify")
                row["outcome"] = str(event.get("outcome"))
                row["verify"] = verify if type(verify) is dict else None
                finished.append(row)
    return {
        "ref": ref,
        "clone": clone,
        "commit": walked[-1]["commit"] if walked else None,
        "count": number,
        "digests": linehash.hexdigests(every),  # the chain's hash of each line, in order
        "problem": segment.continues(walked),
        "started": started,
        "finished": finished,
        "unjudged": unjudged,
        "passes": passes,
    }


def _unjudged(event: Record, number: int, active: str | None) -> Record:
    """A client hook that could not judge and let the call through (CLI-REFERENCE Decision 21):
    its task is the one the line names, else the one active then in this clone's ledger."""
    task = event.get("task_id")
    return {"task_id": task if type(task) is str else active, "line": number,
            "head": event.get("head"), "hook": str(event.get("hook")),
            "provider": str(event.get("provider")), "why": str(event.get("why"))[:200]}  # fmt: skip


def _event(raw: bytes) -> Record | None:
    try:
        value = jsonl.loads_line(raw)
    except ValueError:
        return None
    if type(value) is not dict or value.get("event") not in EVENTS:
        return None
    if type(value.get("task_id")) is not str and value["event"] not in UNTASKED:
        return None
    return value


def _claim(found: Record) -> Record:
    doc = found["claim"]
    return {"ref": found["ref"], "id": doc["what"]["id"], "clone": doc["who"]["clone"],
            "scope": list(doc.get("scope") or []), "state": doc["state"]}  # fmt: skip
