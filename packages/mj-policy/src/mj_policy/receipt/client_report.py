"""What reaches one client in every conversation more often, or more widely, than it should.

From the files a client loads (`receipt.client_loads.loaded`) and the form each carries a rule in:
- a rule scoped to paths that reaches the client in every conversation through a file
  written for another provider, where the client could scope it itself: WARN (the policy's
  choice of providers causes it; nothing here can remove it without taking the rule from the
  provider that file is for);
- a scoped rule the client cannot scope (its own file carries it, as its provider allows no
  better): INFO;
- a rule, or the bootstrap, that reaches the client more than once: INFO.
"""

from __future__ import annotations

from mj_core.findings import Finding

from mj_policy import providers

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

CATEGORY = "delivery"


def arrivals(client: str, files: list[str], targets: dict[str, Record]) -> dict[str, list[str]]:
    """Each rule the client gets in full in every conversation: the files that carry it."""
    found: dict[str, list[str]] = {}
    for target in files:
        about = targets[target]
        own = client in about["providers"]
        for key, form in about["forms"].items():
            if form == "full" or (form == "import" and own):  # only its own client expands it
                found.setdefault(key, []).append(target)
    return found


def reports(
    client: str, files: list[str], targets: dict[str, Record], rules: Record
) -> list[Finding]:
    name = providers.display(client)
    known = providers.table().get(client)
    can_scope = known is not None and (known.scoped or bool(known.also_rule_dirs))
    out = []
    for key, where in arrivals(client, files, targets).items():
        rule = rules.get(key) or {}
        if rule.get("paths") and not rule.get("always"):
            foreign = [t for t in where if client not in targets[t]["providers"]]
            owners = sorted({p for t in foreign for p in targets[t]["providers"]})
            out.append(_scoped(client, key, rule, where, owners if can_scope else []))
        if len(where) > 1:
            shown = ", ".join(where)
            message = f"{key} reaches {name} {len(where)} times in every conversation: {shown}"
            out.append(Finding("INFO", CATEGORY, client, message))
    boots = [t for t in files if targets[t]["kind"] == "main" and targets[t]["bootstrap"]]
    if len(boots) > 1:
        message = (
            f"the bootstrap reaches {name} {len(boots)} times in every conversation: "
            f"{', '.join(boots)} (each written for the provider that reads it)"
        )
        out.append(Finding("INFO", CATEGORY, client, message))
    return out


def _scoped(client: str, key: str, rule: Record, where: list[str], owners: list[str]) -> Finding:
    """`owners`: the other providers whose files carry it, when the client could scope it
    itself (empty when it cannot)."""
    name = providers.display(client)
    globs = ", ".join(str(p) for p in rule["paths"])
    shown = ", ".join(where)
    if owners:
        message = (
            f"{key} is scoped to {globs} but reaches {name} in every conversation through "
            f"{shown}, written for {', '.join(owners)}, which cannot scope it"
        )
        return Finding("WARN", CATEGORY, client, message, "majordomus rules list")
    message = (
        f"{key} is scoped to {globs}; {name} cannot scope it, so it reaches every "
        f"conversation through {shown}"
    )
    return Finding("INFO", CATEGORY, client, message)
