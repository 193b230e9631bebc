"""One provider's load receipt as it is gathered (`receipt`): each file once, read from disk
for its lines, bytes, an estimated token count and its SHA-256, with the budget it counts
against; and what the receipt needs to know of paths (globs, directories, `@path` lines)."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.providers import Provider

    Record = dict[str, Any]

COUNTED = ("always", "import", "nested")  # what a client puts into every conversation
BYTES_PER_TOKEN = 4  # the estimate: a token is about four bytes of English or code


class Maker:
    """The records of one provider's receipt, in the order they were added."""

    __slots__ = ("budget", "known", "left", "root", "seen", "taken")

    def __init__(self, root: Path, known: Provider, budget: str) -> None:
        self.root = root
        self.known = known
        self.budget = budget  # the client's line budget over what it loads, as shown
        self.seen: set[str] = set()
        self.taken: list[Record] = []
        self.left: list[Record] = []

    def add(
        self,
        path: str,
        why: str,
        *,
        glob: str | None = None,
        source: str | None = None,
        note: str | None = None,
    ) -> None:
        if path in self.seen:
            return
        self.seen.add(path)
        record = self.base(path, why, glob, source, note)
        file = self.root / path
        if not file.is_file():
            record["note"] = "not on disk (`majordomus update` writes a generated one)"
            self.left.append(record)
            return
        data = file.read_bytes()
        record["loaded"] = why != "on-request"  # read only when the model is pointed at it
        record["lines"] = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
        record["bytes"] = len(data)
        record["tokens"] = -(-len(data) // BYTES_PER_TOKEN)
        import hashlib  # not on a start-up path

        record["sha256"] = hashlib.sha256(data).hexdigest()
        if why in COUNTED:
            record["budget"] = self.budget
            cap = self.known.budget_bytes
            if cap is not None and len(data) > cap:
                record["note"] = f"cut: the client reads the first {cap} of its {len(data)} bytes"
        (self.taken if record["loaded"] else self.left).append(record)

    def skip(self, path: str, why: str, note: str) -> None:
        self.seen.add(path)
        self.left.append(self.base(path, why, None, None, note))

    def base(
        self, path: str, why: str, glob: str | None, source: str | None, note: str | None
    ) -> Record:
        return {
            "kind": "load",
            "provider": self.known.key,
            "path": path,
            "why": why,
            "loaded": False,
            "glob": glob,
            "from": source,
            "lines": None,
            "bytes": None,
            "tokens": None,
            "sha256": None,
            "budget": None,
            "note": note,
        }

    def loaded(self) -> list[Record]:
        return list(self.taken)

    def records(self) -> list[Record]:
        return self.taken + self.left


def first_match(globs: list[str], paths: list[str]) -> tuple[str | None, str | None]:
    """The first of `globs` that matches one of `paths` (git's wildmatch), and that path."""
    from mj_core.wildmatch import wildmatch

    for glob in globs:
        pattern = wildmatch(glob)
        for path in paths:
            if pattern.match(path):
                return glob, path
    return None, None


def directories(paths: list[str]) -> list[str]:
    """The directories from the root down to each path (its parent), each once, shallow first."""
    found: dict[str, None] = {}
    for path in paths:
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            found["/".join(parts[:depth])] = None
    return sorted(found, key=lambda d: (d.count("/"), d))


def imports_of(root: Path, source: str) -> list[str]:
    """The repository files the `@path` lines of `source` name (relative to its directory),
    outside fenced code blocks; a path leaving the repository is not followed."""
    import posixpath

    try:
        text = (root / source).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    found: list[str] = []
    fenced = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        if fenced or not stripped.startswith("@") or " " in stripped:
            continue
        named = posixpath.normpath(posixpath.join(posixpath.dirname(source), stripped[1:]))
        if named.startswith("../") or named in ("..", ".") or named.startswith("/"):
            continue
        if (root / named).is_file():
            found.append(named)
    return found
