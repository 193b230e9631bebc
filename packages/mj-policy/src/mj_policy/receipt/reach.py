"""Where the delivered rules reach the declared clients, read off their load receipts
(`receipt`): the fact doctor judges a rule that reaches none of them from
(`mj_watch.doctor.reach`, which reads the rules themselves from the files fact).

A file on a client's receipt carries a rule when it is the rule's own file (an `@path` line
brings it in), the rule file a projection delivers it in, or a target whose rendering holds it
(`forms`: in full, imported, or only a pointer to where it is). Each such item is listed per
client with whether it brings the rule in front of the model: an item loaded into the
conversation (or, for a scoped rule file or a nested file, loaded where it applies) that
carries more than a pointer. Only the planned files are looked at, and no rule is resolved
here: doctor runs from a git hook.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from mj_policy.layer.loader import Layer
    from mj_policy.projection.render import Projection

    Record = dict[str, Any]

BRINGS = ("always", "import", "nested", "scoped")  # a receipt item in front of the model


def reach(layer: Layer, planned: list[Projection], forms: dict[str, dict[str, str]]) -> Record:
    """`{"clients": [declared clients], "carried": {rule key: {client: [{path, why, loaded,
    form, reaches}]}}}`."""
    from mj_policy.receipt import gather as receipt

    carriers = _carriers(planned, forms)
    carried: Record = {}
    clients = receipt.clients(planned)
    for client in clients:
        for record in receipt.receipt(layer, planned, client, [], hand=False):
            for key, form in carriers.get(str(record["path"]), {}).items():
                items = carried.setdefault(key, {}).setdefault(client, [])
                items.append(_item(record, form))
    return {"clients": clients, "carried": carried}


def _carriers(
    planned: list[Projection], forms: dict[str, dict[str, str]]
) -> dict[str, dict[str, str]]:
    """file → {rule key: how it carries the rule}."""
    out: dict[str, dict[str, str]] = {}
    for projection in planned:
        delivered = [projection.rule] if projection.rule is not None else projection.inline
        for item in delivered:
            out.setdefault(item.rule.path, {})[item.rule.key] = "own"
        if projection.rule is not None:
            out.setdefault(projection.target, {})[projection.rule.rule.key] = "file"
        for key, form in (forms.get(projection.target) or {}).items():
            out.setdefault(projection.target, {}).setdefault(key, form)
    return out


def _item(record: Record, form: str) -> Record:
    why = str(record["why"])
    where = why in ("scoped", "nested") and "not on disk" not in str(record["note"] or "")
    reaches = why in BRINGS and form != "pointer" and bool(record["loaded"] or where)
    return {
        "path": record["path"],
        "why": why,
        "loaded": record["loaded"],
        "form": form,
        "reaches": reaches,
    }


HOW = {"full": "inline", "pointer": "pointer", "nested": "pointer", "import": "import"}


def landings(layer: Layer) -> dict[str, list[dict[str, str]]]:
    """Where each delivered rule lands, by rule key, as the clients' load receipts say: per
    declared client, each file on its receipt that carries the rule (its own or another
    provider's, whichever the client loads) and how — a rule file loaded always or where its
    paths match, or inside the file in full, as a pointer, or by an `@path` line."""
    from mj_policy.projection import plan as projectionplan
    from mj_policy.projection import render as projections

    data = projections.inputs(layer)
    planned = projectionplan.planned(layer)
    forms = {
        p.target: dict(projections.render(p, data).forms)
        for p in planned
        if p.rule is not None or p.inline
    }
    found: dict[str, list[dict[str, str]]] = {}
    for key, clients in reach(layer, planned, forms)["carried"].items():
        for client, items in clients.items():
            for item in items:
                if item["form"] == "own":  # the rule's own file, brought in by a carrier's line
                    continue
                how = str(item["why"]) if item["form"] == "file" else HOW[str(item["form"])]
                entry = {"provider": client, "target": str(item["path"]), "as": how}
                found.setdefault(key, []).append(entry)
    return found
