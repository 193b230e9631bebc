"""Skills as files: `.ai/repo/skills/<id>/SKILL.md` (schema skill/v1) with optional
`examples/*.md`, read strictly, and every defect of the set (CLI-REFERENCE §2.18, SCHEMAS).

Each skill's front matter is closed by `share/allow/skill.txt` (generated from the schema; a
missing list is a broken install, 13) and held to its schema; its id must be its directory's
name and its body carries non-empty `# Purpose`, `# Procedure` and `# Output`; each example
opens with a first-level heading. Across the set: an id held twice, two descriptions a reader
could not tell apart (lower-cased, whitespace collapsed, trailing punctuation dropped) and a
`related` id no skill has are each a problem of the skill that carries it.
"""

from __future__ import annotations

import os
import re

from mj_core.errors import MjError
from mj_core.yaml import strict as yamlstrict

from mj_policy.layer import front_matter as frontmatter
from mj_policy.layer import parse_cache as parsecache

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from mj_policy.layer.loader import Layer

FILE = "SKILL.md"
SECTIONS = ("Purpose", "Procedure", "Output")


class Skill:
    """One skill directory: its front matter (None when unreadable), body, examples, problems."""

    __slots__ = ("body", "directory", "doc", "examples", "path", "problems")

    def __init__(self, directory: str, path: str) -> None:
        self.directory = directory  # the directory's name: what the id must equal
        self.path = path  # repository-relative SKILL.md
        self.doc: yamlstrict.Document | None = None
        self.body = ""
        self.examples: list[str] = []  # repository-relative
        self.problems: list[tuple[str, str]] = []

    @property
    def data(self) -> dict[str, Any]:
        data = self.doc.data if self.doc is not None else None
        return data if isinstance(data, dict) else {}

    @property
    def id(self) -> str:
        found = self.data.get("id")
        return found if isinstance(found, str) else self.directory

    def where(self, *path: str | int) -> str:
        return self.doc.where(tuple(path)) if self.doc is not None else f"{self.path}:1"

    def text(self, key: str) -> str:
        value = self.data.get(key)
        return value if isinstance(value, str) else ""

    def record(self) -> dict[str, Any]:
        return {"kind": "skill", "view": "item", "id": self.id, "status": self.data.get("status"),
                "description": self.data.get("description"), "path": self.path,
                "valid": not self.problems}  # fmt: skip


class Skills:
    __slots__ = ("directory", "references", "skills")

    def __init__(self, directory: str, skills: list[Skill]) -> None:
        self.directory = directory
        self.skills = skills
        self.references = 0  # related ids checked

    def by_id(self) -> dict[str, Skill]:
        return {s.id: s for s in self.skills}


def _stamp(folder: str) -> list[Any] | None:
    """The stamps of SKILL.md, the examples directory and each example: what a read saw."""
    found: list[Any] = [
        parsecache.stamp(f"{folder}/{FILE}"),
        parsecache.stamp(f"{folder}/examples"),
    ]
    if found[1] is not None:
        for name in sorted(os.listdir(f"{folder}/examples")):
            found.append([name, parsecache.stamp(f"{folder}/examples/{name}")])
    return found if found[0] is not None else None


def read(folder: str, shown_dir: str, cache: parsecache.Cache | None = None) -> Skill:
    """One skill (`folder` the path of its directory, as text); from the cache when its files
    are as they were when last read."""
    name = folder.rpartition("/")[2]
    shown = f"{shown_dir}/{name}/{FILE}"
    now = _stamp(folder) if cache is not None else None
    entry = cache.get(shown, now) if cache is not None and now is not None else None
    if entry is not None:
        item = Skill(name, shown)
        item.doc, item.problems = parsecache.restored(shown, entry)
        item.body, item.examples = str(entry["body"]), list(entry["examples"])
        return item
    item = _read(folder, shown_dir)
    if cache is not None and now is not None:
        kept = parsecache.keep(item.doc, item.problems, body=item.body, examples=item.examples)
        cache.put(shown, now, kept)
    return item


def _read(folder: str, shown_dir: str) -> Skill:
    name = folder.rpartition("/")[2]
    item = Skill(name, f"{shown_dir}/{name}/{FILE}")
    path = f"{folder}/{FILE}"
    if not os.path.isfile(path):
        item.problems.append((item.path, f"no {FILE} in {shown_dir}/{name}/"))
        return item
    found = frontmatter.read(path, item.path, "skill")
    item.doc, item.body = found.doc, found.body
    item.problems += found.problems
    if not found.mapping:
        return item
    ident = item.data.get("id")
    if isinstance(ident, str) and ident != item.directory:
        message = f"id {ident} is not its directory's name ({item.directory})"
        item.problems.append((item.where("id"), message))
    item.problems += frontmatter.empty_sections(found.body, found.first, item.path, SECTIONS, 1)
    _examples(item, folder, f"{shown_dir}/{name}")
    return item


def _examples(item: Skill, folder: str, shown_folder: str) -> None:
    try:
        entries = list(os.scandir(f"{folder}/examples"))
    except (FileNotFoundError, NotADirectoryError):
        return
    for name in sorted(e.name for e in entries if e.name.endswith(".md") and e.is_file()):
        shown = f"{shown_folder}/examples/{name}"
        item.examples.append(shown)
        try:
            text = yamlstrict.read_text(f"{folder}/examples/{name}", shown)
        except MjError as exc:
            item.problems.append((shown, exc.message))
            continue
        opening = next((line for line in text.split("\n") if line.strip()), "")
        if not opening.startswith("# "):
            item.problems.append((f"{shown}:1", "an example opens with a first-level heading"))


def normal(description: str) -> str:
    """A description as a reader tells it apart: lower-cased, whitespace collapsed, trailing
    punctuation dropped."""
    return re.sub(r"[\s.,;:!?…]+$", "", " ".join(description.lower().split()))


def load(lay: Layer, *, save: bool = False) -> Skills:
    """Every skill of the section and the set's defects; `save` keeps what was read in the
    checkout's cache (`mj_policy.layer.parse_cache`) for the next run."""
    directory = lay.section("skills")
    shown = lay.relative(directory)
    try:
        entries = list(os.scandir(directory))
    except (FileNotFoundError, NotADirectoryError):
        entries = []
    base = os.fspath(directory)  # paths as text: a Path per file costs more than its parse
    folders = sorted(e.name for e in entries if e.is_dir())
    cache = parsecache.Cache(lay, "skill")
    found = Skills(shown, [read(f"{base}/{name}", shown, cache) for name in folders])
    if save:
        cache.save()
    _set_wide(found)
    return found


def _set_wide(found: Skills) -> None:
    ids: dict[str, Skill] = {}
    told: dict[str, Skill] = {}
    for item in found.skills:
        if item.doc is None:
            continue
        other = ids.setdefault(item.id, item)
        if other is not item:
            item.problems.append((item.where("id"), f"id {item.id} is also {other.path}"))
        said = normal(item.text("description"))
        same = told.setdefault(said, item) if said else item
        if same is not item:
            message = f"description cannot be told apart from {same.path}'s"
            item.problems.append((item.where("description"), message))
    known = found.by_id()
    for item in found.skills:
        related = item.data.get("related")
        for index, ident in enumerate(related if isinstance(related, list) else []):
            found.references += 1
            if ident not in known:
                message = f"related {ident}: no such skill"
                item.problems.append((item.where("related", index), message))
