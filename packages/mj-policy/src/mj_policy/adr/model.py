"""Architecture decision records as files: `.ai/repo/adrs/<NNNN>-<slug>.md` (schema adr/v1),
read strictly, and every defect of the set (CLI-REFERENCE §2.26, SCHEMAS).

Each file's front matter is closed by `share/allow/adr.txt` and held to its schema; its id must
be `adr-` and its file name's number, and its body carries non-empty `Context`, `Decision` and
`Consequences` sections (a first- or second-level heading each). Across the set: an id held by
two files, a superseded record naming no successor and a supersession written on one side only
are each a problem naming file and line. Nothing here opens git: the claims other refs hold are
`mj_policy.adr.claims`', and whether `related` and `provenance.derived_from` resolve is
`mj_state.records.refs`' (a decision or a session is the checkout's state, not the layer's).
"""

from __future__ import annotations

import os
import re

from mj_core.yaml import strict as yamlstrict

from mj_policy.layer import front_matter as frontmatter
from mj_policy.layer import parse_cache as parsecache

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer

NAME = r"([0-9]{4})-([a-z0-9][a-z0-9-]*)\.md"
_NAME = re.compile(NAME)
SECTIONS = ("Context", "Decision", "Consequences")


class Adr:
    """One record file: its front matter (None when unreadable), body and own problems."""

    __slots__ = ("body", "doc", "number", "path", "problems")

    def __init__(self, path: str, number: int | None) -> None:
        self.path = path  # repository-relative
        self.number = number  # from the file name; None when the name is not NNNN-slug.md
        self.doc: yamlstrict.Document | None = None
        self.body = ""
        self.problems: list[tuple[str, str]] = []  # (where, message)

    @property
    def data(self) -> dict[str, Any]:
        data = self.doc.data if self.doc is not None else None
        return data if isinstance(data, dict) else {}

    @property
    def id(self) -> str:
        found = self.data.get("id")
        if isinstance(found, str):
            return found
        return f"adr-{self.number:04d}" if self.number is not None else self.path

    def where(self, *path: str | int) -> str:
        return self.doc.where(tuple(path)) if self.doc is not None else f"{self.path}:1"

    def ids(self, key: str) -> list[str]:
        value = self.data.get(key)
        return [str(v) for v in value] if isinstance(value, list) else []

    def record(self) -> dict[str, Any]:
        data = self.data
        return {"kind": "adr", "view": "item", "id": self.id, "status": data.get("status"),
                "title": data.get("title"), "path": self.path,
                "valid": not self.problems}  # fmt: skip


class Model:
    __slots__ = ("directory", "problems", "records")

    def __init__(self, directory: str, records: list[Adr]) -> None:
        self.directory = directory
        self.records = records
        self.problems: list[tuple[str, str]] = []  # set-wide (where, message)

    def by_id(self) -> dict[str, Adr]:
        return {r.id: r for r in self.records}


def files(directory: Path) -> list[str]:
    """The names of the directory's `*.md` files, sorted (one listing, no stat per file)."""
    try:
        entries = list(os.scandir(directory))
    except (FileNotFoundError, NotADirectoryError):
        return []
    return sorted(e.name for e in entries if e.name.endswith(".md") and e.is_file())


def number_of(name: str) -> int | None:
    match = _NAME.fullmatch(name)
    return int(match.group(1)) if match else None


def read(path: str, shown: str, cache: parsecache.Cache | None = None) -> Adr:
    """One record; from the cache when the file is as it was when last read."""
    now = parsecache.stamp(path) if cache is not None else None
    entry = cache.get(shown, now) if cache is not None and now is not None else None
    if entry is not None:
        item = Adr(shown, number_of(shown.rpartition("/")[2]))
        item.doc, item.problems = parsecache.restored(shown, entry)
        return item
    item = _read(path, shown)
    if cache is not None and now is not None:
        cache.put(shown, now, parsecache.keep(item.doc, item.problems))
    return item


def _read(path: str, shown: str) -> Adr:
    item = Adr(shown, number_of(shown.rpartition("/")[2]))
    if item.number is None:
        item.problems.append((f"{shown}:1", "file name is not <NNNN>-<slug>.md"))
    found = frontmatter.read(path, shown, "adr")
    item.doc, item.body = found.doc, found.body
    item.problems += found.problems
    if found.mapping:
        _own(item)
        item.problems += frontmatter.empty_sections(found.body, found.first, shown, SECTIONS, 2)
    return item


def _own(item: Adr) -> None:
    """What the schema cannot say: the id is the file name's number, and an extracted record
    names what it was derived from."""
    want = f"adr-{item.number:04d}" if item.number is not None else None
    if want and isinstance(item.data.get("id"), str) and item.data["id"] != want:
        message = f"id {item.data['id']} is not the file name's number ({want})"
        item.problems.append((item.where("id"), message))
    provenance = item.data.get("provenance")
    provenance = provenance if isinstance(provenance, dict) else {}
    if provenance.get("origin") == "extracted" and not provenance.get("derived_from"):
        message = "an extracted record names what it was derived from (derived_from)"
        item.problems.append((item.where("provenance"), message))


def load(lay: Layer, *, save: bool = False) -> Model:
    """Every record of the section and the set's defects; `save` keeps what was read in the
    checkout's cache (`mj_policy.layer.parse_cache`) for the next run."""
    directory = lay.section("adrs")
    model = Model(lay.relative(directory), [])
    cache = parsecache.Cache(lay, "adr")
    base = os.fspath(directory)  # paths as text: a Path per file costs more than its parse
    for name in files(directory):
        model.records.append(read(f"{base}/{name}", f"{model.directory}/{name}", cache))
    if save:
        cache.save()
    _set_wide(model)
    return model


def _set_wide(model: Model) -> None:
    seen: dict[str, Adr] = {}
    for item in model.records:
        if item.doc is None:
            continue
        other = seen.setdefault(item.id, item)
        if other is not item:
            item.problems.append((item.where("id"), f"{item.id} is also {other.path}"))
    known = model.by_id()
    for item in model.records:
        _links(item, known)


def _links(item: Adr, known: dict[str, Adr]) -> None:
    if item.data.get("status") == "superseded" and not item.ids("superseded_by"):
        item.problems.append((item.where("status"), "superseded, yet names no superseded_by"))
    for key, back in (("supersedes", "superseded_by"), ("superseded_by", "supersedes")):
        for index, ident in enumerate(item.ids(key)):
            other = known.get(ident)
            where = item.where(key, index)
            if other is None:
                item.problems.append((where, f"{key} {ident}: no such record"))
            elif item.id not in other.ids(back):
                message = f"{key} {ident}, but {other.path} has no {back}: [{item.id}]"
                item.problems.append((where, f"one-sided supersession: {message}"))
