"""`checkpoint --prune`, `handover --prune`: a record store brought back under its cap.

The oldest records beyond the policy's `retention_max_files` move (never copied, never
deleted) into `state/archive/pruned-<moment>/<store>/`, and one `records.pruned` ledger line
says how many moved and where; `--dry-run` names them and writes nothing. Record names begin
with their creation moment, so name order is age order.
"""

from __future__ import annotations

import os

from mj_core import clock
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.write import confine

from mj_state.ledger import store as ledger

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

STORES = {"checkpoint": "checkpoints", "handover": "handovers"}
TEMPORARY = ".mj-tmp-"  # a writer's file not yet published: never a record, never moved


def asked(options: argparse.Namespace, kind: str, others: tuple[str, ...]) -> bool:
    """Whether `--prune` was asked; 2 for `--dry-run` without it or `--prune` with another
    mode (`others`: the command's options that name one)."""
    if not getattr(options, "prune", False):
        if getattr(options, "dry_run", False):
            raise UsageError(f"{kind}: --dry-run goes with --prune")
        return False
    given = [name for name in others if getattr(options, name, False)]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        raise UsageError(f"{kind} --prune: not with {flags}")
    return True


def prune(layer: Layer, kind: str, *, dry_run: bool) -> Record:
    """Move the oldest records of `kind`'s store beyond its cap; the record of what moved."""
    store = STORES[kind]
    cap = (layer.policy.data.get(kind) or {}).get("retention_max_files")
    directory = layer.state / store
    names = _records(directory)
    over = len(names) - cap if isinstance(cap, int) and not isinstance(cap, bool) else 0
    moving = names[:over] if over > 0 else []
    archive = layer.state / "archive" / f"pruned-{clock.compact(clock.now())}" / store
    record: Record = {
        "kind": "record",
        "action": "prune",
        "store": layer.relative(directory),
        "cap": cap if isinstance(cap, int) and not isinstance(cap, bool) else None,
        "count": len(names),
        "moved": [layer.relative(directory / name) for name in moving],
        "archive": layer.relative(archive) if moving else None,
        "dry_run": dry_run,
    }
    if dry_run or not moving:
        return record
    _move(layer, directory, archive, moving)
    payload = {"store": record["store"], "moved": len(moving), "archive": record["archive"]}
    ledger.append(layer.root, layer.state, "records.pruned", payload)
    return record


def _records(directory: os.PathLike[str]) -> list[str]:
    """The store's record files, oldest first (links and temporaries are not records)."""
    try:
        with os.scandir(directory) as entries:
            found = [
                entry.name
                for entry in entries
                if entry.is_file(follow_symlinks=False) and not entry.name.startswith(TEMPORARY)
            ]
    except FileNotFoundError:
        return []
    return sorted(found)


def _move(
    layer: Layer, directory: os.PathLike[str], archive: os.PathLike[str], names: list[str]
) -> None:
    """Each name from `directory` into `archive` (made 0700), by link then unlink: a name taken
    there is refused (15), and a record is never in neither place."""
    from pathlib import Path

    source = confine.place(Path(directory) / names[0], layer.root, create=False)
    target = confine.place(Path(archive) / names[0], layer.root)
    try:
        with confine.Faults(target.shown):
            for name in names:
                try:
                    os.link(
                        name,
                        name,
                        src_dir_fd=source.fd,
                        dst_dir_fd=target.fd,
                        follow_symlinks=False,
                    )
                except FileExistsError:
                    raise Refused(
                        f"{layer.relative(Path(archive) / name)}: already exists; "
                        "nothing more was moved"
                    ) from None
                os.unlink(name, dir_fd=source.fd)
    finally:
        source.close()
        target.close()
