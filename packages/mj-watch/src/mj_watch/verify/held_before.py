"""The witness judgement against what the remote held earlier (pure).

`verify --witness FILE` hands in what the remote held when a trusted earlier run judged `base`
(`mj_state.verifyfacts.witness`): each ledger it names must still be published, its lines the
recorded ones with lines added. `against` marks a ledger that is not as rewritten (its
`problem` names the first line that differs, so none of its tasks covers anything, as for a
broken chain) and lists the ledgers that are gone. `kept` is what the next run may be handed
(`--witness-out FILE`): each ledger as it is now when it holds, else what was held before —
a rewrite is never recorded as what the remote held.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]


def against(seen: Record, held: Record | None) -> tuple[Record, list[Record]]:
    """(the ledgers fact with each rewritten ledger's problem set, the held ledgers gone)."""
    if held is None:
        return seen, []
    now = {led["ref"]: led for led in seen["ledgers"]}
    gone = []
    marked = dict(now)
    for was in held["ledgers"]:
        led = now.get(was["ref"])
        if led is None:
            gone.append(was)
            continue
        why = differs(led["digests"], was["lines"])
        if why and not led["problem"]:
            when = f"the remote held when {str(held['head'])[:12]} was judged ({held['path']})"
            marked[led["ref"]] = {**led, "problem": f"{why} {when}"}
    ledgers = [marked[led["ref"]] for led in seen["ledgers"]]
    return {**seen, "ledgers": ledgers}, gone


def differs(now: list[str], was: list[str]) -> str | None:
    """None when `now` is `was` with lines added; else the first line that differs."""
    for number, (new, old) in enumerate(zip(now, was, strict=False), 1):
        if new != old:
            return f"line {number} is not the line"
    if len(now) < len(was):
        return f"it holds {len(now)} line(s), line {len(now) + 1} on are gone from the lines"
    return None


def kept(seen: Record, held: Record | None, head: str) -> Record:
    """The `verify-witness-next` fact: what the next run is handed as held."""
    before = {was["ref"]: was for was in (held or {"ledgers": []})["ledgers"]}
    out = []
    for led in seen["ledgers"]:
        if not led["problem"] and led["commit"]:
            out.append({"ref": led["ref"], "commit": led["commit"], "count": led["count"],
                        "lines": led["digests"]})  # fmt: skip
        elif led["ref"] in before:
            out.append(before[led["ref"]])
    listed = {item["ref"] for item in out}
    out += [was for ref, was in before.items() if ref not in listed]
    return {"kind": "fact", "fact": "verify-witness-next", "head": head, "ledgers": out}
