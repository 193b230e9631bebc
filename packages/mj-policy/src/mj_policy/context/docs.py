"""Context documents: discovery of `.ai/**/README.md` and the checks on one document.

Discovery asks git for the file list (the index plus untracked, not ignored files under `.ai/`),
never walks the tree. `.ai/local/` and `.ai/repo/rules/vendor/` are not part of the tree. A
document's *home* is its directory, except that the layer's root document (`.ai/<name>`) is
the repository's own: its home is `.`. The cross-document rules live in `context.tree`.
"""

from __future__ import annotations

import posixpath
import re

from mj_core import files
from mj_core import limits
from mj_core import timing
from mj_core.errors import ContractUnmet
from mj_core.git import questions as git
from mj_core.schema import keys
from mj_core.yaml.strict import decode
from mj_core.yaml.strict import split_front_matter

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_core.yaml.strict import Document

SCHEMA = "context/v1"
EXCLUDED = (".ai/local", ".ai/repo/rules/vendor")
REQUIRED = (
    *("schema", "id", "kind", "title", "description", "status", "scope"),
    *("providers", "audience", "composition", "order"),
)
ENUMS = {
    "status": ("active", "deprecated"),
    "scope": ("directory", "subtree", "explicit"),
    "composition": ("extend", "replace", "final"),
}
# Patterns as text: `re` compiles (and caches) one the first time a document is checked with it.
ID = r"[a-z][a-z0-9-]*(\.[a-z0-9-]+)*"
REL_DIR = r"[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*"
PROVIDER = r"\*|[a-z][a-z0-9-]*"


class Problem:
    """One validation failure: its error class, where, and what."""

    __slots__ = ("cls", "message", "where")

    def __init__(self, cls: str, where: str, message: str) -> None:
        self.cls = cls
        self.where = where
        self.message = message

    def __repr__(self) -> str:  # what a failing assertion on a list of problems shows
        return f"Problem({self.cls!r}, {self.where!r}, {self.message!r})"


class ContextDoc:
    """One parsed context document and the directory it speaks for."""

    __slots__ = ("doc", "home", "path")

    def __init__(self, path: str, home: str, doc: Document) -> None:
        self.path = path  # repository-relative path of the file
        self.home = home  # the directory it speaks for ('.' for the layer's root document)
        self.doc = doc

    @property
    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = self.doc.data
        return data

    @property
    def id(self) -> str:
        return str(self.data["id"])

    @property
    def depth(self) -> int:
        return 0 if self.home == "." else self.home.count("/") + 1

    def where(self, key: str | None = None) -> str:
        return f"{self.path}:{self.doc.line((key,) if key else ())}"


LAYER_FILES = ("ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".ai")


def layer_files(root: Path) -> list[str]:
    """Files of the layer tree: git's index plus untracked, not ignored files under `.ai/`."""
    code, out, _ = git.run(*LAYER_FILES, cwd=root)
    files = sorted(set(git.zsplit(out))) if code == 0 else []
    return [f for f in files if not any(_below(f, cut) for cut in EXCLUDED)]


def _below(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory + "/")


def home_of(path: str) -> str:
    directory = posixpath.dirname(path)
    return "." if directory == ".ai" else directory


def candidates(files: list[str], names: tuple[str, ...]) -> list[str]:
    """The files that carry (or owe) the contract: named in `context.documents`, on disk."""
    return [f for f in files if posixpath.basename(f) in names]


def read(root: Path, path: str) -> tuple[ContextDoc | None, list[Problem]]:
    """Parse one candidate; (None, []) when it has no front matter at all."""
    try:
        raw = files.read_capped(root / path, path, limits.DOCUMENT)
    except FileNotFoundError:
        return None, []  # in the index, deleted from the worktree: not part of the tree now
    except ContractUnmet as exc:  # over the size limits, or not a regular file
        return None, [_yaml_problem(exc.message, path)]
    except OSError as exc:
        return None, [Problem("invalid-front-matter", f"{path}:1", f"unreadable ({exc.strerror})")]
    timing.count("files read")
    if not raw.removeprefix(b"\xef\xbb\xbf").startswith(b"---"):
        return None, []
    try:
        doc, _, _ = split_front_matter(decode(raw, path), path)
    except ContractUnmet as exc:
        return None, [_yaml_problem(exc.message, path)]
    if not isinstance(doc.data, dict):
        return None, [Problem("invalid-front-matter", f"{path}:2", "front matter is not a mapping")]
    found = ContextDoc(path, home_of(path), doc)
    return found, check(found)


def _yaml_problem(message: str, path: str) -> Problem:
    """`path:line:col: what` from the strict reader → a problem at `path:line`."""
    rest = message[len(path) + 1 :] if message.startswith(path + ":") else message
    line, _, tail = rest.partition(":")
    if line.isdigit():
        return Problem("invalid-front-matter", f"{path}:{line}", tail.partition(": ")[2] or tail)
    return Problem("invalid-front-matter", f"{path}:1", rest)


def check(item: ContextDoc) -> list[Problem]:
    """Every constraint one document can break on its own; no defaults for missing keys."""
    data = item.data
    if "schema" in data and data["schema"] != SCHEMA:
        got = data["schema"]
        return [
            Problem(
                "unsupported-schema", item.where("schema"), f"schema {got!r}: reads only {SCHEMA}"
            )
        ]
    problems = [
        Problem("unknown-key", where.rsplit(":", 1)[0], f"unknown key '{key}'")
        for where, key in keys.unknown_keys(item.doc, "context")
    ]
    for key in REQUIRED:
        if key not in data:
            message = f"missing required key '{key}' (there are no defaults)"
            problems.append(Problem("invalid-front-matter", item.where(), message))
    problems += [Problem("invalid-front-matter", item.where(k), m) for k, m in _values(data)]
    return problems


def _values(data: dict[str, Any]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for key, allowed in ENUMS.items():
        if key in data and data[key] not in allowed:
            found.append((key, f"{key}: {data[key]!r} is not one of {', '.join(allowed)}"))
    if data.get("kind", "context") != "context":
        found.append(("kind", f"kind: {data['kind']!r} must be 'context'"))
    if "id" in data and not (isinstance(data["id"], str) and re.fullmatch(ID, data["id"])):
        found.append(("id", f"id: {data['id']!r} does not match {ID}"))
    for key in ("title", "description"):
        if key in data and not _line(data[key]):
            found.append((key, f"{key}: must be one non-empty line of text"))
    if "order" in data and (isinstance(data["order"], bool) or not isinstance(data["order"], int)):
        found.append(("order", f"order: {data['order']!r} is not an integer"))
    found += _lists(data)
    found += _scope_keys(data)
    return found


def _line(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip()) and "\n" not in value


def _lists(data: dict[str, Any]) -> list[tuple[str, str]]:
    rules: dict[str, tuple[str | None, tuple[str, ...], bool]] = {
        "providers": (PROVIDER, (), True),
        "audience": (None, ("human", "agent"), True),
        "paths": (REL_DIR, (), False),
        "supersedes": (ID, (), False),
        "tracks": (None, (), False),
    }
    found: list[tuple[str, str]] = []
    for key, (pattern, allowed, non_empty) in rules.items():
        if key in data:
            problem = _list_problem(data[key], pattern, allowed, non_empty)
            if problem:
                found.append((key, f"{key}: {problem}"))
    return found


def _list_problem(
    value: Any, pattern: str | None, allowed: tuple[str, ...], non_empty: bool
) -> str | None:
    if not isinstance(value, list):
        return "must be a list"
    if non_empty and not value:
        return "must name at least one value"
    if len(set(map(str, value))) != len(value):
        return "repeats a value"
    for item in value:
        if not isinstance(item, str) or not item:
            return f"{item!r} is not a non-empty string"
        if pattern is not None and not re.fullmatch(pattern, item):
            return f"{item!r} does not match {pattern}"
        if allowed and item not in allowed:
            return f"{item!r} is not one of {', '.join(allowed)}"
    return None


def _scope_keys(data: dict[str, Any]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    scope = data.get("scope")
    if scope == "explicit" and "paths" not in data:
        found.append(("scope", "scope explicit requires 'paths' (there are no defaults)"))
    if scope in ("directory", "subtree") and data.get("paths"):
        found.append(("paths", f"paths: only scope explicit names paths, this one is {scope}"))
    if data.get("composition") == "replace" and "supersedes" not in data:
        found.append(("composition", "composition replace requires 'supersedes'"))
    if "children" in data:
        found += _children(data["children"], scope)
    return found


def _children(value: Any, scope: Any) -> list[tuple[str, str]]:
    if scope != "subtree":
        return [("children", f"children: only a subtree document declares it, this one is {scope}")]
    if not isinstance(value, dict) or "require_contract" not in value:
        return [("children", "children: requires 'require_contract' (there are no defaults)")]
    found: list[tuple[str, str]] = []
    if not isinstance(value["require_contract"], bool):
        found.append(("children", "children.require_contract: must be true or false"))
    problem = _list_problem(value.get("exempt", []), REL_DIR, (), False)
    if problem:
        found.append(("children", f"children.exempt: {problem}"))
    return found
