"""`plan verify`, `plan evidence` and `plan done` judged: a pure function from the `plan-move`
fact (`mj_state.plan.move_facts`) to the verdict `mj-state plan-move-write` writes, or the
refusal.

It opens no file: `mj-watch plan-move` runs it over the facts on its stdin, and the writer runs
it again over the facts it gathers under the plan's locks. Refusals, in order: a plan with a
problem (10, naming the first), a marker neither git nor the ledger holds (10), no such issue
(12); for `done`, an obligation the active task promised for the issue not met (10); an issue
not in the status the action needs, a dependency not DONE (15) or a required token no evidence
covers (10) (`mj_state.plan.rules.allowed`); for `evidence`, a missing `--covers`, `--type` or
`--result` (2), a token the issue does not require (15), neither `--command` nor `--artifact`
(2), or an `evidence:` key that is not the file's last (15); and an append that would change
more than its own line (15). The verdict names the issue, the move, the request's evidence
options and the entry they make, and what it was judged on (the issue file's hash and the
ledger's tip).
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_policy.plan import status as derive

from mj_state.plan import rules
from mj_state.plan import start_judge as startjudge

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from mj_policy.plan import model as planmodel

    Record = dict[str, Any]

STAMP = startjudge.STAMP  # the time while judging; the writer stamps its own


def judge(fact: Record) -> Record:
    ident, action = str(fact["id"]), str(fact["action"])
    model, item = startjudge.sound(fact)
    met = _met(fact["linked"], ident) if action == "done" else set()
    rules.allowed(model, derive.issue_statuses(model), action, ident, met)
    text = str(fact["text"])
    line, entry = addition(item, action, fact["given"], fact["commit"], STAMP)
    rules.holds(item, rules.appended(text.encode("utf-8"), line), action)
    import hashlib  # only a plan writer's verdict names the file it judged

    return {
        "kind": "verdict",
        "action": "plan-move",
        "move": action,
        "id": ident,
        "path": item.path,
        "given": fact["given"],
        "entry": entry,
        "file": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "tip": str(fact["tip"]),
    }


def _met(linked: Record | None, ident: str) -> set[str]:
    """`done` of the issue this checkout's active task works on: refused (10) while an
    obligation the task promised is uncovered, failed, stale or unsettled; the tokens its fresh
    evidence covers need no entry in the issue file."""
    if linked is None:
        return set()
    entries = linked["obligations"]
    open_ = [e for e in entries if e["state"] not in ("covered", "settled", "verify")]
    if open_:
        said = "; ".join(f"{e['token']} {e['state']} ({e['why']})" for e in open_)
        raise ContractUnmet(
            f"plan done {ident}: task {linked['task']} has obligations not met: {said} — "
            "`majordomus check --rule majordomus.obligations-covered`"
        )
    return {str(e["token"]) for e in entries if e["state"] == "covered"}


def addition(
    item: planmodel.Item, action: str, given: Record | None, commit: str | None, stamp: str
) -> tuple[str, Record | None]:
    """The line(s) the action appends to the issue file, and (for `evidence`) the entry as the
    ledger records it (without its time: the ledger line has its own)."""
    if action in rules.MARKER:
        return f"{rules.MARKER[action]}: {stamp}\n", None
    from mj_core.yaml import write as yamlwrite

    given = given or {}
    for flag in ("covers", "type", "result"):
        if not given.get(flag):
            raise UsageError(f"plan evidence: --{flag} is required")
    token = given["covers"]
    if token not in item.data["evidence_required"]:
        required = ", ".join(item.data["evidence_required"]) or "none"
        raise Refused(f"plan evidence {item.id}: {token!r} is not a token it requires ({required})")
    if not (given.get("shown_by") or given.get("artifact")):
        raise UsageError("plan evidence: give --command or --artifact: what shows it")
    entry = {"covers": token, "type": given["type"], "command": given.get("shown_by") or "-",
             "result": given["result"]}  # fmt: skip
    if given.get("artifact"):
        entry["artifact"] = given["artifact"]
    entry["commit"] = commit or "0000000"
    lines = "".join(
        f"{'  - ' if index == 0 else '    '}{key}: {yamlwrite.scalar(value)}\n"
        for index, (key, value) in enumerate({**entry, "recorded_at": stamp}.items())
    )
    if "evidence" not in item.data:
        return "evidence:\n" + lines, entry
    if list(item.data)[-1] != "evidence":
        raise Refused(f"{item.path}: evidence: is not its last key; move it last to append to it")
    return lines, entry
