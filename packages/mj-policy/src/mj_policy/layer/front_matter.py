"""A Markdown record with front matter, read strictly: what skills (`mj_policy.skills.model`) and
decision records (`mj_policy.adr.model`) share.

`read` splits the file, parses the front matter with the strict reader and holds it to its
kind's allow list (`share/allow/<kind>.txt`), the keys its schema requires and the rest of the
schema (types, enums, patterns), each problem naming file and line. `sections` finds the
headings of the body (fenced code skipped); `empty_sections` names each required one that is
absent or holds nothing. What a record's model adds (its id rule, the set-wide checks) stays
there.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.schema import full as schema
from mj_core.schema import keys
from mj_core.schema import required
from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    Problems = list[tuple[str, str]]  # (where, message)

_SKIP = ("required", "additionalProperties")  # reported with their own wording


class Read:
    """One file read: its front matter (None when unreadable), its body, the line the body
    starts on, and the problems found reading it."""

    __slots__ = ("body", "doc", "first", "problems")

    def __init__(self) -> None:
        self.doc: yamlstrict.Document | None = None
        self.body = ""
        self.first = 1
        self.problems: Problems = []

    @property
    def mapping(self) -> bool:
        """The front matter was read and is a mapping: the record's own checks may run."""
        return self.doc is not None and isinstance(self.doc.data, dict)


def read(path: Path | str, shown: str, kind: str) -> Read:
    """The file at `path` (named `shown`) held to the allow list and schema of `kind`."""
    found = Read()
    try:
        text = yamlstrict.read_text(path, shown)
        found.doc, found.body, found.first = yamlstrict.split_front_matter(text, shown)
    except MjError as exc:
        found.problems.append((shown, exc.message))
        return found
    if not isinstance(found.doc.data, dict):
        found.problems.append((f"{shown}:2", "front matter is not a mapping"))
        return found
    found.problems += against_schema(found.doc, kind)
    return found


def against_schema(doc: yamlstrict.Document, kind: str) -> Problems:
    """Unknown keys, missing required keys and the schema's other violations, in that order."""
    found = [(where, f"unknown key '{key}' (share/allow/{kind}.txt)")
             for where, key in keys.unknown_keys(doc, kind)]  # fmt: skip
    found += [(where, f"missing key '{key}'") for where, key in required.missing_keys(doc, kind)]
    found += schema.quick_violations(doc, kind, skip=_SKIP)
    return found


def sections(body: str, deepest: int) -> dict[str, list[str]]:
    """Each heading of level 1 to `deepest` (`# Title`, `## Title`) and the lines below it up
    to the next such heading; headings inside fenced code are not headings."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    fence = False
    for line in body.split("\n"):
        if line.startswith("```"):
            fence = not fence
        level = _level(line) if not fence and line.startswith("#") else 0
        if 0 < level <= deepest:
            current = found.setdefault(line[level:].strip(), [])
        elif current is not None:
            current.append(line)
    return found


def _level(line: str) -> int:
    """The level of an ATX heading line (`## x` → 2), 0 when it is not one."""
    level = len(line) - len(line.lstrip("#"))
    return level if line[level : level + 1] == " " and line[level:].strip() else 0


def empty_sections(body: str, first: int, shown: str, names: tuple[str, ...],
                   deepest: int) -> Problems:  # fmt: skip
    """A problem for each of `names` that is not a heading with a non-blank line below it."""
    found = sections(body, deepest)
    mark = "#" * deepest
    return [(f"{shown}:{first}", f"no non-empty '{mark} {name}' section") for name in names
            if not any(line.strip() for line in found.get(name, []))]  # fmt: skip
