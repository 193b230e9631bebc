"""`mj-policy vendor-update-facts [--force]`: what `mj-policy vendor-update-judge` judges, as one
`vendor-update` fact: the vendored package's path, whether it is there (its manifest), what
fails its own manifest, the files that differ from the package this majordomus ships, the
shipped package's files, and `--force` as given. Nothing is judged here.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

from mj_policy.layer import loader as layer_mod
from mj_policy.rules import package as rulepkg
from mj_policy.rules import vendoring

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield gather(layer_mod.load(context.root()), force=bool(options.force))


def gather(layer: Layer, *, force: bool) -> Record:
    """The `vendor-update` fact (the writer gathers it again, the same way)."""
    target = layer.section("rules") / "vendor" / vendoring.VENDOR
    present = (target / rulepkg.MANIFEST).is_file()
    return {
        "kind": "fact",
        "fact": "vendor-update",
        "force": force,
        "package": layer.relative(target),
        "present": present,
        "problems": vendoring.integrity(target) if present else [],
        "differing": vendoring.status(layer).differing if present else [],
        "shipped": vendoring.files(vendoring.shipped()),
    }


STAGES = {"vendor-update-facts": Stage(run)}
