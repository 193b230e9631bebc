"""From pieces to project rules (pure: records in, rule files out).

- Pieces with the same title and the same text (`adoption.split.normal`) are one rule naming every
  place they came from; it reaches the widest of what they reached (always, else the union of
  their paths, else on request).
- A piece the layer already carries (`adoption.cover`) makes no rule.
- The id is `project.<slug>`: the title (or, for a piece without a heading, the file's label)
  in lower-case ASCII, each run of other characters one `-`, at most 48 characters; `-2`,
  `-3`, … when another rule or file already has it, in the order the pieces came. The file is
  `.ai/repo/rules/project/<slug>.v1.md`.
"""

from __future__ import annotations

import re

from mj_policy.adoption import split as importsplit

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Record = dict[str, Any]

DIRECTORY = ".ai/repo/rules/project"
SLUG_MOST = 48


class Planned:
    """One rule to write: its identity, its file, where its text came from and what it reaches."""

    __slots__ = ("body", "file", "id", "paths", "pieces", "reach", "title")

    def __init__(self, piece: Record) -> None:
        self.pieces = [piece]
        self.title = str(piece["title"]) or str(piece["label"])
        self.body = importsplit.normal(str(piece["body"]))
        self.reach = str(piece["reach"])
        self.paths = list(piece["paths"])
        self.id = ""
        self.file = ""

    def merge(self, piece: Record) -> None:
        self.pieces.append(piece)
        if "always" in (self.reach, piece["reach"]):
            self.reach, self.paths = "always", []
        elif "paths" in (self.reach, piece["reach"]):
            self.reach = "paths"
            self.paths += [p for p in piece["paths"] if p not in self.paths]

    @property
    def files(self) -> list[str]:
        return list(dict.fromkeys(str(p["file"]) for p in self.pieces))

    @property
    def description(self) -> str:
        described = {str(p["description"]) for p in self.pieces}
        if len(described) == 1 and "" not in described:
            return importsplit.one_line(described.pop())
        return f"Imported from {_listed(self.files)} by `majordomus init --import`."

    @property
    def statement(self) -> str:
        return f"The instructions below, imported from {_listed(self.files)}, apply as written."


def _listed(files: list[str]) -> str:
    quoted = [f"`{f}`" for f in files]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def key(piece: Record) -> tuple[str, str]:
    return importsplit.one_line(str(piece["title"])), importsplit.normal(str(piece["body"]))


def plan(
    pieces: list[Record], taken: set[str], carried: Callable[[Record], str | None]
) -> tuple[list[Planned], list[Record]]:
    """The rules to write, and a `not-imported` record for each piece already carried.
    `taken`: the slugs no new rule may have (ids and file names already in the layer)."""
    planned: dict[tuple[str, str], Planned] = {}
    left: list[Record] = []
    for piece in pieces:
        why = carried(piece)
        if why is not None:
            left.append(not_imported(piece, why))
        elif key(piece) in planned:
            planned[key(piece)].merge(piece)
        else:
            planned[key(piece)] = Planned(piece)
    rules = list(planned.values())
    for rule in rules:
        name = unique(slug(rule.title), taken)
        taken.add(name)
        rule.id, rule.file = f"project.{name}", f"{DIRECTORY}/{name}.v1.md"
    return rules, left


def not_imported(piece: Record, why: str) -> Record:
    return {"kind": "not-imported", "file": piece["file"], "lines": piece["lines"], "reason": why}


def slug(title: str) -> str:
    import unicodedata

    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    found = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    if len(found) > SLUG_MOST:
        found = found[:SLUG_MOST].rsplit("-", 1)[0] if "-" in found[:SLUG_MOST] else found[:48]
    return found.strip("-") or "instructions"


def unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    number = 2
    while f"{name}-{number}" in taken:
        number += 1
    return f"{name}-{number}"
