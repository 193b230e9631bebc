"""`mj-policy vendor-update-write`: the one write of `rules vendor update` — the shipped package
swapped in for the vendored one (built beside it, exchanged by two renames; `rules/project/` is
never touched), then its `rules.vendored` line asked of `mj-state log`.

It passes the judge's stream on; a `vendor-update` verdict becomes the swap. It does not take
the verdict on trust: it reads the vendored package again itself and judges again: a refusal
there is the command's, and a verdict that differs (a `--force` the judge did not see, files
that moved since judging, a replay) swaps nothing (15).
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_policy.layer import loader as layer_mod
from mj_policy.rules import vendor_update_facts as updatefacts
from mj_policy.rules import vendor_update_judge as updatejudge
from mj_policy.rules import vendoring

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(
        options.input,
        "vendor-update",
        lambda verdict: update(layer_mod.load(context.root()), verdict),
    )


def update(layer: layer_mod.Layer, verdict: Record) -> Iterator[Record]:
    """The swap judged again over the package as it is now, then made."""
    again = updatejudge.judge(updatefacts.gather(layer, force=verdict.get("force") is True))
    if again != verdict:
        raise Refused(
            f"rules vendor update: the verdict is not what {verdict.get('package')} holds now; "
            "nothing was swapped"
        )
    target = layer.section("rules") / "vendor" / vendoring.VENDOR
    vendoring.swap(target, vendoring.shipped())
    yield {"kind": "vendored", "package": verdict["package"], "changed": list(verdict["changed"])}
    yield {"kind": "append", "event": "rules.vendored", "package": vendoring.VENDOR}


STAGES = {"vendor-update-write": Stage(run)}
