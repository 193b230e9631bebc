"""`mj-state session-archive [--dry-run]`: the session section brought back under its cap
(SCHEMAS: the promise `history --rotate` keeps for the ledger).

Only on request, and only when the policy sets `session.archive: true`: the oldest closed
records beyond `session.retention_max_files` move (never copied, never deleted) into the
section's `archive/` directory, and one `session.archived` ledger line says how many moved and
where. Before the first move every target is looked at: a record whose name is already
archived refuses the whole run (15) with nothing moved. Record names begin with their closing
moment, so name order is age order. `--dry-run` names what would move and writes nothing.
"""

from __future__ import annotations

import os

from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_state.ledger import store as ledger
from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

ARCHIVE = "archive"


def settings(layer: Layer) -> int:
    """The cap, when the policy asks for archiving; refused (15) when it does not."""
    block = layer.policy.data.get("session")
    block = block if isinstance(block, dict) else {}
    if block.get("archive") is not True:
        raise Refused(
            "session archive: the policy does not set session.archive: true — closed records "
            "are archived only when it does (.ai/repo/policy.yaml)"
        )
    cap = block.get("retention_max_files")
    if not isinstance(cap, int) or isinstance(cap, bool):
        raise Refused("session archive: the policy names no session.retention_max_files")
    return cap


def archive(layer: Layer, *, dry_run: bool) -> Record:
    cap = settings(layer)
    directory = sessions.closed_dir(layer.root)
    names = sorted(sessions.closed_names(layer.root))  # oldest first
    moving = names[: max(0, len(names) - cap)]
    target = directory / ARCHIVE
    record: Record = {"kind": "record", "action": "session-archive",
                      "store": layer.relative(directory), "cap": cap, "count": len(names),
                      "moved": [layer.relative(directory / n) for n in moving],
                      "archive": layer.relative(target), "dry_run": dry_run}  # fmt: skip
    taken = [n for n in moving if os.path.lexists(target / n)]
    if taken:
        raise Refused(f"{layer.relative(target / taken[0])}: already archived; nothing was moved")
    if dry_run or not moving:
        return record
    _move(layer, directory, target, moving)
    payload = {"moved": len(moving), "kept": len(names) - len(moving),
               "archive": record["archive"]}  # fmt: skip
    ledger.append(layer.root, layer.state, "session.archived", payload)
    return record


def _move(layer: Layer, directory: Path, target: Path, names: list[str]) -> None:
    """Each record into the archive by link then unlink: never in neither place, a name taken
    meanwhile refused (15)."""
    from mj_core.write import confine

    source = confine.place(directory / names[0], layer.root, create=False)
    into = confine.place(target / names[0], layer.root)
    try:
        with confine.Faults(into.shown):
            for name in names:
                try:
                    os.link(name, name, src_dir_fd=source.fd, dst_dir_fd=into.fd,
                            follow_symlinks=False)  # fmt: skip
                except FileExistsError:
                    shown = layer.relative(target / name)
                    raise Refused(f"{shown}: already archived; nothing more was moved") from None
                os.unlink(name, dir_fd=source.fd)
    finally:
        source.close()
        into.close()


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_policy.layer.loader import load

    yield archive(load(context.root()), dry_run=bool(options.dry_run))


STAGES = {"session-archive": Stage(_run)}
