"""`mj-watch ratchet-update-write`: the one write of `ratchet update` — the counts the verdict of
`mj-watch ratchet-update-judge` accepts written as `.ai/repo/ratchet-baseline.yaml`, and
recorded in the ledger (`ratchet.updated`; first `ratchet.raised` with the reason for each
count that went up): what `ratchet check` vouches the baseline by.

It passes the judge's stream on; a `ratchet-update` verdict becomes the write. It does not take
the verdict on trust: it counts the metrics again itself (`mj_watch.ratchet.facts.gather`) and
judges them again with the verdict's own `--allow-increase` and reason: a refusal there is the
command's, and a verdict that differs (a count written in, a rise left out, one judged before
the tree or the baseline moved) writes nothing (15).
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_watch.ratchet import update_judge
from mj_watch.ratchet.facts import BASELINE

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(
        options.input, "ratchet-update", lambda verdict: (update(context.root(), verdict),)
    )


def update(root: Path, verdict: Record) -> Record:
    """The counts judged again over the tree as it is now, then written and recorded."""
    from mj_watch.ratchet import facts as ratchetfacts

    told = next(
        (f for f in ratchetfacts.gather(root) if f.get("fact") == "ratchet"), {"declared": False}
    )
    why = verdict.get("why")
    again = update_judge.judge(told, allow_increase=verdict.get("allow_increase") is True,
                               why=why if isinstance(why, str) else None)  # fmt: skip
    if again != verdict:
        raise Refused(
            "ratchet update: the verdict is not what the tree counts now; nothing written "
            "(run: majordomus ratchet check)"
        )
    from mj_core.write import atomic
    from mj_policy.layer.loader import load
    from mj_state.ledger import store as ledger

    new, raised = verdict["counts"], verdict["raised"]
    text = "version: 1\ncounts:\n" + "".join(f"  {name}: {count}\n" for name, count in new.items())
    atomic.create(root / BASELINE, text.encode("utf-8"), mode=0o644, root=root, replace=True)
    state = load(root).state
    if raised:
        ledger.append(root, state, "ratchet.raised", {"raised": raised, "why": why})
    ledger.append(root, state, "ratchet.updated", {"counts": new})  # what `check` vouches by
    return {
        "kind": "record",
        "action": "ratchet",
        "path": BASELINE,
        "counts": new,
        "raised": raised,
    }


STAGES = {"ratchet-update-write": Stage(run)}
