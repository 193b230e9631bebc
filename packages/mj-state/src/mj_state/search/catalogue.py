"""Every durable record and layer object by kind and id: what `majordomus mcp` serves as
`majordomus://<kind>/<id>`.

An object is named by its record's identity (`mj_state.search.identities`): a rule by its `id`, a
session by its `session_id`, an ADR as `adr-NNNN`, a skill by its directory; any other record
file (handover, checkpoint, prompt asset, plan file, workspace or deployment declaration,
profile) by its file's stem; a decision and a question by their 1-based position in their
index; a ledger line by its line number; a knowledge node by its graph id (`rule:<id>`,
`document:<path>`), and it reads as its source file (`mj_state.search.knowledge`: only a file
git tracks). Every id is percent-encoded in its URI (a node's `:` and `/` kept) and decoded
when it is looked up. An id is only ever looked up among the ids the listing names, never
joined onto a path, so `..`, a
slash (in a node's path: an empty, `.` or `..` step) or an absolute path names nothing (15:
refused as a path escape); a file that is a symbolic link, or whose real path leaves the
repository, is refused too. Read-only.
"""

from __future__ import annotations

import os
import re

from mj_core.errors import MissingArtifact
from mj_core.errors import Refused

from mj_state.ledger import store as ledger
from mj_state.records import decisions
from mj_state.records import questions
from mj_state.search import corpus as searchcorpus
from mj_state.search import identities
from mj_state.search.catalogue_entry import Entry

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from mj_policy.layer.loader import Layer

FILED = ("handover", "checkpoint", "prompt", "policy", "rule", "session", "plan", "adr", "skill",
         "workspace", "deployment")  # fmt: skip
KINDS = (*searchcorpus.KINDS, "profile")
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*(@[0-9]+)?")
_NODE = re.compile(r"[a-z][a-z0-9_-]*:[^\x00-\x1f\x7f\\]+")  # `<kind>:<name>`, no control
_MOST = 1 << 20  # bytes of one served file: the largest limit of any record format


def entries(layer: Layer, kind: str) -> list[Entry]:
    """Every object of one kind, in the order `search` reads them."""
    if kind not in KINDS:
        raise MissingArtifact(f"{kind!r}: no such kind (one of: {', '.join(KINDS)})")
    if kind == "decision":
        shown = layer.relative(decisions.path(layer.state))
        found = decisions.read(layer.state)
        return [Entry(kind, str(n), shown, e.title, e.line) for n, e in enumerate(found, 1)]
    if kind == "question":
        shown = layer.relative(questions.path(layer.state))
        listed, _ = questions.load(layer.state)
        return [Entry(kind, str(e.number), shown, e.question, e.lineno) for e in listed]
    if kind == "ledger":
        return list(_ledger(layer))
    if kind == "knowledge":
        from mj_state.search import knowledge as searchknowledge

        rows = searchknowledge.nodes(layer.root)
        return [Entry(kind, row[0], row[2], row[3] or row[2]) for row in rows]
    filed = [_filed(layer, kind, path) for path in _files(layer, kind)]
    return identities.unique(filed) if kind == "rule" else filed


def _files(layer: Layer, kind: str) -> Iterator[str]:
    if kind in FILED:
        for path in searchcorpus.files(layer, kind):
            if kind != "skill" or path.endswith(os.sep + "SKILL.md"):
                yield path
    else:
        base = layer.section("profiles")
        yield from (str(base / f"{name}.yaml") for name in layer.profile_names())


def _filed(layer: Layer, kind: str, path: str) -> Entry:
    relative = os.path.relpath(path, layer.root).replace(os.sep, "/")
    return Entry(kind, identities.of(kind, path), relative, relative)


def _ledger(layer: Layer) -> Iterator[Entry]:
    path = ledger.path(layer.state)
    shown = layer.relative(path)
    for number, raw, _ in _ledger_rows(path):
        event = re.search(rb'"event":"([a-z.]+)"', raw)
        title = event.group(1).decode() if event else "(malformed line)"
        yield Entry("ledger", str(number), shown, title, number)


def _ledger_rows(path: Path) -> list[tuple[int, bytes, bool]]:
    from mj_state.ledger import read as ledgerread

    try:
        return ledgerread.raw_lines(path)
    except FileNotFoundError:
        return []


def checked_id(kind: str, ident: str) -> None:
    """Refuse (15) an id that could name a place: anything but a plain name (for a knowledge
    node, `<kind>:` and a relative path with no empty, `.` or `..` step)."""
    if kind == "knowledge":
        steps = ident.partition(":")[2].split("/")
        bad = not _NODE.fullmatch(ident) or any(step in ("", ".", "..") for step in steps)
    else:
        bad = not _ID.fullmatch(ident) or ".." in ident
    if bad:
        raise Refused(
            f"majordomus://{kind}/{ident}: not an id — a path escape is refused "
            "(ids are listed by `list`)"
        )


def find(layer: Layer, kind: str, ident: str) -> Entry:
    """The object `kind`/`ident`; an unknown kind or id is 12, a path-shaped id 15."""
    if kind not in KINDS:
        raise MissingArtifact(f"majordomus://{kind}/{ident}: no such kind ({', '.join(KINDS)})")
    from urllib.parse import unquote

    ident = unquote(ident)
    checked_id(kind, ident)
    for entry in entries(layer, kind):
        if ident in (entry.id, entry.alias):
            return entry
    raise MissingArtifact(f"majordomus://{kind}/{ident}: no such {kind} (see `list {kind}`)")


def text(layer: Layer, entry: Entry) -> str:
    """The object's text: the whole file, or the entry's own lines of an index or the ledger."""
    data = _confined(layer, entry.path)
    whole = data.decode("utf-8", "replace")
    if entry.kind == "ledger":
        return whole.split("\n")[entry.line - 1]
    if entry.kind == "decision":
        return next(e.text() for e in decisions.parse(whole) if e.line == entry.line)
    if entry.kind == "question":
        return whole.split("\n")[entry.line - 1]
    return whole


def _confined(layer: Layer, relative: str) -> bytes:
    """The bytes of a file inside the repository, never through a link leading anywhere."""
    path = os.path.join(layer.root, relative)
    real = os.path.realpath(path)
    root = os.path.realpath(layer.root)
    if os.path.islink(path) or os.path.commonpath([real, root]) != root:
        raise Refused(f"{relative}: a link or a path outside the repository; not followed")
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    try:
        return os.read(fd, _MOST + 1)[:_MOST]
    finally:
        os.close(fd)
