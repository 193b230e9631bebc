"""`checkpoint --prune`, `handover --prune`: a record store brought back under its cap.

The oldest records beyond the policy's `retention_max_files` move (never copied, never
deleted) into `state/archive/pruned-<moment>/<store>/`, and one `records.pruned` ledger line
says how many moved and where; `--dry-run` names them and writes nothing. Record names begin
with their creation moment, so name order is age order.

As stages: `survey` gathers the `records-prune` fact, `judge` (pure) gives the record of a
prune that moves nothing or the verdict naming what moves, `carry_out` does that move after
judging the store again as it is then.
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
    judged = judge(survey(layer, kind, dry_run=dry_run))
    return carry_out(layer, judged) if judged["kind"] == "verdict" else judged


def survey(layer: Layer, kind: str, *, dry_run: bool) -> Record:
    """The `records-prune` fact: the store's records, oldest first, its cap, the archive a move
    now would go to. Nothing judged."""
    store = STORES[kind]
    cap = (layer.policy.data.get(kind) or {}).get("retention_max_files")
    directory = layer.state / store
    archive = layer.state / "archive" / f"pruned-{clock.compact(clock.now())}" / store
    return {
        "kind": "fact",
        "fact": "records-prune",
        "command": kind,
        "store": layer.relative(directory),
        "cap": cap if isinstance(cap, int) and not isinstance(cap, bool) else None,
        "names": _records(directory),
        "archive": layer.relative(archive),
        "dry_run": dry_run,
    }


def judge(fact: Record) -> Record:
    """A pure function of the `records-prune` fact: the record of a prune that moves nothing (a
    dry run, or a store within its cap), else the verdict naming what moves."""
    names, cap = [str(name) for name in fact["names"]], fact["cap"]
    over = len(names) - cap if cap is not None else 0
    moved = [f"{fact['store']}/{name}" for name in names[:over]] if over > 0 else []
    if fact["dry_run"] or not moved:
        return {
            "kind": "record",
            "action": "prune",
            "store": fact["store"],
            "cap": cap,
            "count": len(names),
            "moved": moved,
            "archive": fact["archive"] if moved else None,
            "dry_run": bool(fact["dry_run"]),
        }
    return {
        "kind": "verdict",
        "action": "records-prune",
        "command": fact["command"],
        "store": fact["store"],
        "cap": cap,
        "count": len(names),
        "moved": moved,
    }


def carry_out(layer: Layer, verdict: Record) -> Record:
    """The move a `records-prune` verdict names, judged again over the store as it is now: a
    verdict that is not that judgement moves nothing (15). One `records.pruned` ledger line."""
    kind = str(verdict.get("command"))
    if kind not in STORES:
        raise Refused(f"prune: {kind!r} keeps no record store; nothing was moved")
    fact = survey(layer, kind, dry_run=False)
    if judge(fact) != verdict:
        raise Refused(
            f"{kind} --prune: the verdict is not what {fact['store']} holds now; nothing was moved"
        )
    directory = layer.state / STORES[kind]
    archive = layer.root / str(fact["archive"])
    moving = [str(path).rsplit("/", 1)[-1] for path in verdict["moved"]]
    _move(layer, directory, archive, moving)
    payload = {"store": fact["store"], "moved": len(moving), "archive": fact["archive"]}
    ledger.append(layer.root, layer.state, "records.pruned", payload)
    return {
        "kind": "record",
        "action": "prune",
        "store": fact["store"],
        "cap": fact["cap"],
        "count": verdict["count"],
        "moved": list(verdict["moved"]),
        "archive": fact["archive"],
        "dry_run": False,
    }


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
