"""What each plan writer needs before it appends, as pure functions over a plan already read:
the status an action needs (`allowed`: 15 naming what the issue waits on; `done` also every
dependency DONE and every required token covered, 10), and that the file as it would be written
parses to what it was plus this one addition (`holds`, 15). They open no file: the `plan start`
judge (`mj_state.plan.start_judge`) runs them over facts, the writers over the plan they read
under the plan's lock.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import Refused
from mj_policy.plan import status as derive

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_policy.plan import model as planmodel

NEEDS = {"start": ("READY",), "verify": ("ACTIVE",), "evidence": ("ACTIVE", "VERIFY"),
         "done": ("ACTIVE", "VERIFY")}  # fmt: skip
MARKER = {"start": "started_at", "verify": "verified_at", "done": "completed_at"}


def allowed(
    model: planmodel.Model, statuses: dict[str, str], action: str, ident: str, met: set[str]
) -> None:
    status = statuses[ident]
    if status not in NEEDS[action]:
        waits = derive.blockers(model, statuses, ident)
        why = f"; it waits on {', '.join(waits)}" if status == "BLOCKED" and waits else ""
        raise Refused(
            f"plan {action} {ident}: it is {status}, not {' or '.join(NEEDS[action])}{why}"
        )
    if action != "done":
        return
    waits = derive.blockers(model, statuses, ident)
    if waits:
        raise Refused(f"plan done {ident}: a dependency is not DONE: {', '.join(waits)}")
    item = model.issues[ident]
    covered = {e["covers"] for e in item.data.get("evidence") or []}
    missing = [t for t in item.data["evidence_required"] if t not in covered | met]
    if missing:
        hint = f"`majordomus plan evidence {ident} --covers {missing[0]} ...`"
        raise ContractUnmet(f"plan done {ident}: no evidence covers {', '.join(missing)} — {hint}")


def appended(old: bytes, line: str) -> bytes:
    """The file with `line` appended (a newline first when its last line has none)."""
    return old + (b"" if old.endswith(b"\n") or not old else b"\n") + line.encode("utf-8")


def holds(item: planmodel.Item, new: bytes, action: str) -> None:
    """The file as it would be written parses to what it was plus this one addition (15
    otherwise, nothing written): an append can never change another key."""
    from mj_core.errors import MjError
    from mj_core.yaml import strict as yamlstrict

    try:
        data = yamlstrict.parse(new.decode("utf-8"), item.path).data
    except MjError as exc:
        raise Refused(f"{item.path}: the appended line would not parse ({exc.message})") from None
    before = dict(item.data)
    if action == "evidence":
        grown = list(before.get("evidence") or [])
        ok = isinstance(data, dict) and list(data.get("evidence") or [])[: len(grown)] == grown
        ok = ok and len(data["evidence"]) == len(grown) + 1
        ok = ok and {k: v for k, v in data.items() if k != "evidence"} == {
            k: v for k, v in before.items() if k != "evidence"}  # fmt: skip
    else:
        ok = (
            isinstance(data, dict)
            and {k: v for k, v in data.items() if k != MARKER[action]} == before
        )
    if not ok:
        raise Refused(f"{item.path}: appending {action} would change more than its own line")
