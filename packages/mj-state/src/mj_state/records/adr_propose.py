"""`mj-state adr-propose-write`: the one write of `adr propose` — the verdict `mj-watch
adr-propose` gave, written: one new decision record, `status: proposed`, with its ledger line
`adr.proposed`.

It passes the judge's stream on; a `verdict` record (and only that) becomes the write. It does
not take the verdict on trust: under the lock of the ADR directory of every worktree (`flock`
on the directories, in path order) it gathers the facts again (`mj_state.records.adr_facts`)
for what the verdict asks and judges them again (`mj_state.records.adr_judge`): a refusal
there is the command's, and a verdict that differs from the one judged now is refused (15),
nothing written. The id is one above the highest number claimed anywhere
(`mj_policy.adr.claims`: this tree, the sibling worktrees, every ref's tip, every checkout's
ledger), taken here under that lock and never from the stream, so proposals racing in one
checkout or in several get distinct numbers and no hole; with a remote, the number is taken
there too (`refs/majordomus/adr/<n>`) before the file is written. `--supersedes` writes both
sides: the new record's `supersedes` and the old one's `superseded_by`; the two files and the
ledger line land together or not at all.
"""

from __future__ import annotations

import fcntl
import os

from mj_core import clock
from mj_core.errors import Refused
from mj_core.stream.stage import Stage
from mj_core.write import atomic
from mj_core.yaml import write as yamlwrite
from mj_policy.adr import claims as adrclaims
from mj_policy.layer.loader import load

from mj_state.ledger import store as ledger
from mj_state.records import adr_facts as adrfacts
from mj_state.records import adr_judge as adrjudge

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def _text(ident: str, verdict: Record, day: str) -> str:
    front: dict[str, Any] = {"schema": "adr/v1", "id": ident, "kind": "adr",
                             "title": verdict["title"], "status": "proposed",
                             "date": day}  # fmt: skip
    if verdict["tags"]:
        front["tags"] = list(verdict["tags"])
    if verdict["supersedes"]:
        front["supersedes"] = [verdict["supersedes"]]
    if verdict["derived_from"]:
        front["provenance"] = {"origin": "extracted", "derived_from": list(verdict["derived_from"])}
    body = "".join(
        f"\n## {name}\n\n_{hint}_\n"
        for name, hint in (
            ("Context", "What forces this decision: write it before acceptance."),
            ("Decision", "What is decided, in one paragraph."),
            ("Consequences", "What it costs and what it makes easier."),
        )
    )
    return f"---\n{yamlwrite.dump(front)}---\n{body}"


class DirLocks:
    """An exclusive `flock` on each directory, taken in path order, released together."""

    def __init__(self, directories: list[Path]) -> None:
        self.paths = sorted({str(d.resolve()) for d in directories})
        self.fds: list[int] = []

    def __enter__(self) -> DirLocks:
        for path in self.paths:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            self.fds.append(fd)
            fcntl.flock(fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        for fd in reversed(self.fds):
            os.close(fd)


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    arrived = list(context.records(options.input))
    for record in arrived:
        if record.get("kind") == "verdict" and record.get("action") == "adr-propose":
            yield propose(context.root(), record)
        else:
            yield record


def propose(root: Path, verdict: Record) -> Record:
    lay = load(root)
    directory = lay.section("adrs")
    section = lay.relative(directory)
    atomic.make_dirs(directory, root=root)
    with DirLocks(adrclaims.section_dirs(root, section)):
        fact = adrfacts.gather(
            lay,
            title=str(verdict["title"]),
            sources=[str(s) for s in verdict["derived_from"]],
            tags=[str(t) for t in verdict["tags"]],
            supersedes=verdict["supersedes"],
        )
        if adrjudge.judge(fact) != verdict:
            raise Refused(
                f"adr propose {verdict['title']!r}: the verdict is not what its facts give "
                "under the lock; nothing was written"
            )
        number, claim = _number(lay, adrclaims.gather(root, section).next_number(),
                                str(verdict["title"]))  # fmt: skip
        ident = f"adr-{number:04d}"
        moment = clock.now()
        path = directory / f"{ident[4:]}-{adrjudge.slug(str(verdict['title']))}.md"
        text = _text(ident, verdict, clock.day(moment))
        payload = {"adr": ident, "title": verdict["title"], **({"claim": claim} if claim else {})}

        def logged() -> None:
            ledger.append(root, lay.state, "adr.proposed", payload, moment=moment)

        then = logged
        old = fact["old"]
        if old is not None:
            old_path = root / str(old["path"])
            new_old = adrjudge.successor(str(old["path"]), old["data"], old["text"], ident)

            def then() -> None:
                atomic.create(old_path, new_old.encode("utf-8"), replace=True, root=root,
                              then=logged)  # fmt: skip

        atomic.create(path, text.encode("utf-8"), mode=0o644, root=root, then=then)
    return {"kind": "adr", "view": "proposed", "id": ident, "title": verdict["title"],
            "path": lay.relative(path), "supersedes": [old["id"]] if old else [],
            "note": adrjudge.NOTE}  # fmt: skip


def _number(lay: Any, first: int, title: str) -> tuple[int, Record | None]:
    """The number: `first` here; with a remote, the lowest from there up that no clone has
    taken on the remote, taken there (`refs/majordomus/adr/<n>`) before the file is written."""
    from mj_state import mirror

    if not mirror.configured(lay.policy.data):
        return first, None
    from mj_state.remote import hooks

    taken = hooks.take_adr(lay, first, title)
    return taken if taken is not None else (first, None)


STAGES = {"adr-propose-write": Stage(run)}
