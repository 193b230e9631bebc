"""`mj-state adrs --view list|check`: the decision records, each with every defect it has (an
invalid one listed too; `--status` filters), or every defect of every record and of the set,
named by file and line (10 on any) — the set's own (`mj_policy.adr.model`), the ids other refs claim
(`mj_policy.adr.claims`) and each reference that names nothing (`mj_state.records.refs`: a decision,
a session or a task is this checkout's state, so the check is the state tool's).
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.adr import model as adrmodel
    from mj_policy.layer.loader import Layer


def model(lay: Layer, *, save: bool = False) -> adrmodel.Model:
    """The records with every problem they have, unresolved references included."""
    from mj_policy.adr import model as adrmodel

    from mj_state.records import refs as recordrefs

    found = adrmodel.load(lay, save=save)
    recordrefs.adrs(lay, found)
    return found


def _run(options: argparse.Namespace, context: Context) -> Iterator[dict[str, Any]]:
    from mj_policy.adr import stages as adrstages
    from mj_policy.layer.loader import load

    lay = load(context.root())
    found = model(lay, save=True)
    if options.view == "check":
        yield from (f.record() for f in adrstages.check(lay.root, found))
        return
    for item in found.records:
        if options.status in (None, item.data.get("status")):
            yield item.record()


STAGES = {"adrs": Stage(_run)}
