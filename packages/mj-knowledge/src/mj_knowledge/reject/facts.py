"""`mj-knowledge reject-facts <id> --reason <why> [--by <id>]`: what `mj-knowledge reject-judge`
judges, as one `knowledge-reject` fact: the id, the reason and `--by` as given, and the
candidate as read (`mj_policy.knowledge.awaiting.found`: whether it is curated already, its
front matter, body and problems). Nothing is judged here.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage
from mj_policy.knowledge import awaiting

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield gather(context.root(), str(options.id), options.reason, options.by)


def gather(root: Path, ident: str, reason: str | None, by: str | None) -> Record:
    """The `knowledge-reject` fact (the writer gathers it again, the same way)."""
    return {"kind": "fact", "fact": "knowledge-reject", "reason": reason, "by": by,
            "candidate": awaiting.found(root, ident)}  # fmt: skip


STAGES = {"reject-facts": Stage(run)}
