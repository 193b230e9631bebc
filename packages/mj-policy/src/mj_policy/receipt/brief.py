"""`mj-policy brief-receipt --for PROVIDER`: a built briefing's records in, the same records
out, then what the load receipt of that provider's client lists for every conversation, so
that `context --for` names the provider's file and what its client loads as the receipt reads
the table.

It is the receipt (`receipt.receipt`) for no path, of the declared projections rather than
the plan, without the nested files and the rules read on request: no rule is resolved and no
projection planned. What a client loads into every conversation is the same either way: the
rule files in the directories it reads are judged by their front matter as its client judges
them (the ones `update` writes carry the front matter that scopes them), and a planned file
not on disk is loaded by no client. Only `context --for` runs this stage: `context` alone
imports none of the receipt's code. A receipt that cannot be made (a provider the table does
not know, a layer that does not load) adds nothing: the renderer names the provider from the
briefing alone, and the other commands report the defect.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_core.errors import MjError

    from mj_policy import providers
    from mj_policy.layer import loader as layer_mod
    from mj_policy.projection import render as projections
    from mj_policy.receipt import gather as receipt

    yield from context.records(getattr(options, "input", None))
    name = options.provider_for
    if name not in providers.table():
        return
    try:
        layer = layer_mod.load(context.root())
        declared = projections.declared(layer.policy.data)
        found = receipt.receipt(layer, declared, name, [], every=False, table=True)
    except MjError:
        return
    yield from found


STAGES = {"brief-receipt": Stage(_run)}
