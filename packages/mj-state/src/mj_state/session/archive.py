"""`mj-state session-archive-facts [--dry-run] | session-archive-judge | session-archive-write`:
the session section brought back under its cap (SCHEMAS: the promise `history --rotate` keeps
for the ledger), as facts (`gather`: the policy's block, the records, the archive's names),
judge (`judge`, which reads only that fact) and writer (`carry_out`, which gathers and judges
again before it moves anything: an edited or replayed verdict moves nothing, 15).

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


def gather(layer: Layer, *, dry_run: bool) -> Record:
    """The `session-archive` fact: the policy's `session` block, the closed records oldest
    first, the names the archive holds already. Nothing judged."""
    block = layer.policy.data.get("session")
    block = block if isinstance(block, dict) else {}
    directory = sessions.closed_dir(layer.root)
    target = directory / ARCHIVE
    try:
        archived = sorted(os.listdir(target))
    except (FileNotFoundError, NotADirectoryError):
        archived = []
    return {"kind": "fact", "fact": "session-archive", "dry_run": dry_run,
            "archive_on": block.get("archive") is True, "cap": block.get("retention_max_files"),
            "store": layer.relative(directory), "archive": layer.relative(target),
            "names": sorted(sessions.closed_names(layer.root)), "archived": archived}  # fmt: skip


def judge(fact: Record) -> Record:
    """The record of an archive that moves nothing (a dry run, a section within its cap), else
    the verdict naming what moves; a refusal raised (15)."""
    if not fact["archive_on"]:
        raise Refused(
            "session archive: the policy does not set session.archive: true — closed records "
            "are archived only when it does (.ai/repo/policy.yaml)"
        )
    cap = fact["cap"]
    if not isinstance(cap, int) or isinstance(cap, bool):
        raise Refused("session archive: the policy names no session.retention_max_files")
    names = [str(name) for name in fact["names"]]
    moving = names[: max(0, len(names) - cap)]
    store, target = str(fact["store"]), str(fact["archive"])
    record: Record = {"kind": "record", "action": "session-archive", "store": store, "cap": cap,
                      "count": len(names), "moved": [f"{store}/{n}" for n in moving],
                      "archive": target, "dry_run": bool(fact["dry_run"])}  # fmt: skip
    taken = [n for n in moving if n in set(fact["archived"])]
    if taken:
        raise Refused(f"{target}/{taken[0]}: already archived; nothing was moved")
    if fact["dry_run"] or not moving:
        return record
    return {**record, "kind": "verdict"}


def carry_out(layer: Layer, verdict: Record) -> Record:
    """The move a `session-archive` verdict names, judged again over the section as it is now:
    a verdict that is not that judgement moves nothing (15). One `session.archived` line."""
    again = judge(gather(layer, dry_run=False))
    if again != verdict:
        raise Refused(
            f"session archive: the verdict is not what {verdict.get('store')} holds now; nothing "
            "was moved"
        )
    directory = sessions.closed_dir(layer.root)
    moving = [str(path).rsplit("/", 1)[-1] for path in verdict["moved"]]
    _move(layer, directory, directory / ARCHIVE, moving)
    payload = {"moved": len(moving), "kept": int(verdict["count"]) - len(moving),
               "archive": verdict["archive"]}  # fmt: skip
    ledger.append(layer.root, layer.state, "session.archived", payload)
    return {**verdict, "kind": "record"}


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


def _facts(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_policy.layer.loader import load

    yield gather(load(context.root()), dry_run=bool(options.dry_run))


def _judge(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield judge(
        context.the_fact(options.input, "session-archive", "mj-state session-archive-facts")
    )


def _write(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_policy.layer.loader import load

    yield from context.carried(
        options.input,
        "session-archive",
        lambda verdict: (carry_out(load(context.root()), verdict),),
    )


STAGES = {
    "session-archive-facts": Stage(_facts),
    "session-archive-judge": Stage(_judge),
    "session-archive-write": Stage(_write),
}
