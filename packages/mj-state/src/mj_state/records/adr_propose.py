"""`mj-state adr-propose "<title>" [--from <type>:<value>]… [--tag <t>]… [--supersedes <id>]`:
one new decision record, `status: proposed`, with its ledger line `adr.proposed`.

The id is one above the highest number claimed anywhere (`mj_policy.adr.claims`: this tree,
the sibling worktrees, every ref's tip, every checkout's ledger), allocated while the ADR
directory of every worktree is locked (`flock` on the directories, in path order), so proposals
racing in one checkout or in several get distinct numbers and no hole. Acceptance is a person's
edit: `--status` is refused (15). `--from` names evidence (`decision|session|commit|issue|file|
test`), each resolved as `adr check` resolves it (one that names nothing is 10; a commit is
written by its full id), and makes the record `extracted`.
`--supersedes` writes both sides: the new record's `supersedes` and the old one's
`superseded_by`; the two files and the ledger line land together or not at all.
"""

from __future__ import annotations

import fcntl
import os
import re

from mj_core import clock
from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.stream.stage import Stage
from mj_core.write import atomic
from mj_core.yaml import write as yamlwrite
from mj_policy.adr import claims as adrclaims
from mj_policy.adr import model as adrmodel
from mj_policy.layer.loader import load

from mj_state.ledger import store as ledger

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

TYPES = ("decision", "session", "commit", "issue", "file", "test")
NOTE = "acceptance is a person's edit: set `status: accepted` in the file when it is decided"


def _evidence(lay: Layer, given: list[str]) -> list[str]:
    """Each `--from` as it will be written (a path relative to the root, a commit by its full
    id), every one resolved (`mj_state.records.references`): one that names nothing is 10."""
    from mj_core import paths

    from mj_state.records.references import World

    out = []
    for item in given:
        kind, _, value = item.partition(":")
        if kind not in TYPES or not value:
            raise UsageError(f"--from {item}: not <type>:<value>, type one of {', '.join(TYPES)}")
        if kind in ("file", "test"):
            value = paths.relative_from_root(lay.root, value, what=f"--from {kind}:")
        elif kind == "commit":
            value = _commit(lay.root, value)
        out.append(f"{kind}:{value}")
    world = World(lay)
    world.prepare(out)
    for item, ref in zip(given, out, strict=True):
        why = world.why_not(ref)
        if why is not None:
            raise ContractUnmet(f"--from {item}: dangling — {why}; nothing was written")
    return out


def _commit(root: Path, value: str) -> str:
    """The full id of the commit `value` names (a ref moves; the record keeps the commit)."""
    from mj_core.git import questions as git

    found = git.out("rev-parse", "--verify", "--quiet", "--end-of-options", f"{value}^{{commit}}",
                    cwd=root)  # fmt: skip
    return found.strip() if found else value


def _slug(title: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60].rstrip("-")
    if not slug:
        raise UsageError(f"title {title!r}: gives no file name (use letters or digits)")
    return slug


def _text(
    ident: str, title: str, day: str, options: argparse.Namespace, evidence: list[str]
) -> str:
    front: dict[str, Any] = {"schema": "adr/v1", "id": ident, "kind": "adr", "title": title,
                             "status": "proposed", "date": day}  # fmt: skip
    if options.tag:
        front["tags"] = list(dict.fromkeys(options.tag))
    if options.supersedes:
        front["supersedes"] = [options.supersedes]
    if evidence:
        front["provenance"] = {"origin": "extracted", "derived_from": evidence}
    body = "".join(
        f"\n## {name}\n\n_{hint}_\n"
        for name, hint in (
            ("Context", "What forces this decision: write it before acceptance."),
            ("Decision", "What is decided, in one paragraph."),
            ("Consequences", "What it costs and what it makes easier."),
        )
    )
    return f"---\n{yamlwrite.dump(front)}---\n{body}"


def _successor(old: adrmodel.Adr, text: str, ident: str) -> str:
    """The old record's text with `ident` added to its `superseded_by` (every other line kept);
    refused (15, nothing written) when that would change anything else."""
    lines = text.split("\n")
    if "---" not in lines[1:]:
        raise Refused(f"{old.path}: its front matter does not end with a '---' line")
    close = lines.index("---", 1)
    have = old.ids("superseded_by")
    start = next((i for i in range(1, close) if lines[i].startswith("superseded_by:")), None)
    block = ["superseded_by:"] + [f"  - {v}" for v in [*have, ident]]
    if start is None:
        lines[close:close] = block
    else:
        end = start + 1
        while end < close and lines[end].startswith((" ", "-")):
            end += 1
        lines[start:end] = block
    new = "\n".join(lines)
    from mj_core.errors import MjError
    from mj_core.yaml import strict as yamlstrict

    try:
        data = yamlstrict.split_front_matter(new, old.path)[0].data
    except MjError:
        data = None
    wanted = {**old.data, "superseded_by": [*have, ident]}
    if data != wanted:
        raise Refused(f"{old.path}: adding superseded_by would change more than that key")
    return new


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


def propose(root: Path, options: argparse.Namespace) -> Iterator[Record]:
    if getattr(options, "status", None):
        raise Refused(f"--status {options.status}: propose writes `status: proposed` only — {NOTE}")
    title = " ".join(str(options.title or "").split())
    if not title:
        raise UsageError("adr propose: give the title, one line")
    lay = load(root)
    directory = lay.section("adrs")
    section = lay.relative(directory)
    slug = _slug(title)
    evidence = _evidence(lay, options.source or [])
    atomic.make_dirs(directory, root=root)
    with DirLocks(adrclaims.section_dirs(root, section)):
        model = adrmodel.load(lay)
        old = _old(model, options.supersedes)
        number, claim = _number(lay, adrclaims.gather(root, section).next_number(), title)
        ident = f"adr-{number:04d}"
        moment = clock.now()
        path = directory / f"{ident[4:]}-{slug}.md"
        text = _text(ident, title, clock.day(moment), options, evidence)
        payload = {"adr": ident, "title": title, **({"claim": claim} if claim else {})}

        def logged() -> None:
            ledger.append(root, lay.state, "adr.proposed", payload, moment=moment)

        then = logged
        if old is not None:
            old_path = root / old.path
            new_old = _successor(old, old_path.read_text(encoding="utf-8"), ident)

            def then() -> None:
                atomic.create(old_path, new_old.encode("utf-8"), replace=True, root=root,
                              then=logged)  # fmt: skip

        atomic.create(path, text.encode("utf-8"), mode=0o644, root=root, then=then)
    yield {"kind": "adr", "view": "proposed", "id": ident, "title": title,
           "path": lay.relative(path), "supersedes": [old.id] if old else [],
           "note": NOTE}  # fmt: skip


def _number(lay: Any, first: int, title: str) -> tuple[int, Record | None]:
    """The number: `first` here; with a remote, the lowest from there up that no clone has
    taken on the remote, taken there (`refs/majordomus/adr/<n>`) before the file is written."""
    from mj_state import mirror

    if not mirror.configured(lay.policy.data):
        return first, None
    from mj_state.remote import hooks

    taken = hooks.take_adr(lay, first, title)
    return taken if taken is not None else (first, None)


def _old(model: adrmodel.Model, ident: str | None) -> adrmodel.Adr | None:
    if not ident:
        return None
    old = model.by_id().get(ident)
    if old is None:
        raise MissingArtifact(f"--supersedes {ident}: no such record in {model.directory}")
    if old.doc is None or not isinstance(old.doc.data, dict):
        raise Refused(f"{old.path}: its front matter does not parse; fix it before superseding it")
    return old


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from propose(context.root(), options)


STAGES = {"adr-propose": Stage(_run)}
