"""`mj-policy adr --view next|affected` and `mj-policy adr-show <id>`: the decision records
read back (nothing is written here; `mj-state adr-propose-write` writes). `check` is the judge
`mj-state adrs` runs once each record's references are resolved (a listing's validity too).

`show` an unknown id is 12; `next` is one above the highest number claimed anywhere
(`mj_policy.adr.claims`), each unreachable source a WARN; `check` names every defect (10 on
any); `affected` WARNs for each record whose related files or tests changed while it did not
(exit unaffected).
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.errors import UsageError
from mj_core.findings import Finding
from mj_core.stream.stage import Stage

from mj_policy.adr import claims as adrclaims
from mj_policy.adr import model as adrmodel
from mj_policy.layer import loader as layer_mod

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

CHECK = "majordomus adr check"


def check(root: Path, model: adrmodel.Model) -> Iterator[Finding]:
    failed = 0
    for item in model.records:
        for where, message in item.problems:
            failed += 1
            yield Finding("FAIL", "adr", where, message, CHECK)
    found = model.problems + adrclaims.conflicts(root, model, model.directory)
    for where, message in found:
        failed += 1
        yield Finding("FAIL", "adr", where, message, CHECK)
    count = len(model.records)
    valid = sum(1 for r in model.records if not r.problems)
    said = f"{count} record(s), {valid} valid; {failed} defect(s)"
    yield Finding("OK" if not failed else "INFO", "adr", model.directory, said)


def show(model: adrmodel.Model, ident: str | None, root: Path) -> Iterator[Record]:
    if not ident:
        raise UsageError("adr show: name a record id (adr-NNNN)")
    item = model.by_id().get(ident)
    if item is None:
        known = ", ".join(sorted(model.by_id())) or "none"
        raise MissingArtifact(f"{ident}: no such record in {model.directory} (records: {known}) "
                              "— `majordomus adr list` names them")  # fmt: skip
    text = (root / item.path).read_text(encoding="utf-8")
    yield {"kind": "adr", "view": "show", "id": item.id, "path": item.path, "text": text}


def next_id(root: Path, section: str) -> Iterator[Record]:
    claims = adrclaims.gather(root, section)
    for where in claims.unreachable:
        yield Finding("WARN", "adr", where, "unreachable: its claims were not read",
                      "git worktree list --porcelain").record()  # fmt: skip
    number = claims.next_number()
    yield {"kind": "adr", "view": "next", "id": f"adr-{number:04d}",
           "sources": claims.sources}  # fmt: skip


def affected(root: Path, model: adrmodel.Model, options: argparse.Namespace) -> Iterator[Finding]:
    from mj_policy.context import sync as contextsync

    against, said = contextsync.against(root, options)
    owed = 0
    for item in model.records:
        specs = [ref.split(":", 1)[1] for ref in item.ids("related")
                 if ref.startswith(("file:", "test:"))]  # fmt: skip
        if not specs or item.data.get("status") not in ("proposed", "accepted"):
            continue
        moved = [p for p in contextsync.changed(root, against, specs) if p != item.path]
        if moved and not contextsync.changed(root, against, [f":(literal){item.path}"]):
            owed += 1
            message = f"{item.id} relates to {', '.join(moved[:3])}, changed {said}; review it"
            yield Finding("WARN", "adr", item.path, message, contextsync.reproduce(against, specs))
    if not owed:
        yield Finding("OK", "adr", model.directory, f"no record owes a review for changes {said}")


def views(root: Path, model: adrmodel.Model, options: argparse.Namespace) -> Iterator[Record]:
    view = options.view
    if view == "next":
        yield from next_id(root, model.directory)
    else:
        yield from (f.record() for f in affected(root, model, options))


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    lay = layer_mod.load(context.root())
    yield from views(lay.root, adrmodel.load(lay, save=True), options)


def _show(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    lay = layer_mod.load(context.root())
    yield from show(adrmodel.load(lay), options.id, lay.root)


STAGES = {"adr": Stage(_run), "adr-show": Stage(_show)}
