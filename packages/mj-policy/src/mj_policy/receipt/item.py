"""One provider's load receipt as it is gathered (`receipt`): each file once, read from disk
for its lines, bytes and an estimated token count, the SHA-256 of its text as the client hands
it to the model (share/providers.yaml `text`: front matter or HTML comments stripped, trimmed),
the budget it counts against and whether `majordomus update` writes it; and what the receipt
needs to know of paths (globs, directories, `@path` lines)."""

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

    __slots__ = ("budget", "hashed", "known", "left", "measure", "planned", "root", "seen",
                 "taken")  # fmt: skip

    def __init__(
        self,
        root: Path,
        known: Provider,
        budget: str,
        planned: set[str],
        *,
        measure: bool = True,
        hashed: bool = True,
    ) -> None:
        self.root = root
        self.measure = measure  # False: each file's presence only (no reading, no hashing)
        self.hashed = hashed  # False: measured, not hashed (sha256 null)
        self.known = known
        self.budget = budget  # the client's line budget over what it loads, as shown
        self.planned = planned  # the files `majordomus update` writes
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
        measured: bool = True,
    ) -> None:
        """One item, read from disk for its sizes and hash (`measured=False`, or a Maker that
        does not measure: its presence only)."""
        if path in self.seen:
            return
        self.seen.add(path)
        record = self.base(path, why, glob, source, note)
        file = self.root / path
        if not file.is_file():
            record["note"] = "not on disk (`majordomus update` writes a generated one)"
            self.left.append(record)
            return
        record["loaded"] = why != "on-request"  # read only when the model is pointed at it
        if not (self.measure and measured):
            (self.taken if record["loaded"] else self.left).append(record)
            return
        data = file.read_bytes()
        record["lines"] = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
        record["bytes"] = len(data)
        record["tokens"] = -(-len(data) // BYTES_PER_TOKEN)
        if self.hashed:
            from mj_core import sha  # CPython's own SHA-256: no OpenSSL to load

            record["sha256"] = sha.hexdigest(received(data, self.known, why))
        if why in COUNTED:
            record["budget"] = self.budget
            cap = self.known.budget_bytes
            if cap is not None and len(data) > cap:
                record["note"] = f"cut: the client reads the first {cap} of its {len(data)} bytes"
        (self.taken if record["loaded"] else self.left).append(record)

    def skip(self, path: str, why: str, note: str) -> None:
        if path in self.seen:
            return
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
            "projected": path in self.planned,
            "note": note,
        }

    def imports_after_importers(self) -> None:
        """Each imported file right after the file whose `@path` line brings it in (the files
        it imports in turn after it), as the clients assemble them."""
        imported: dict[str, list[Record]] = {}
        for record in self.taken:
            if record["why"] == "import":
                imported.setdefault(str(record["from"]), []).append(record)
        ordered: list[Record] = []

        def place(record: Record) -> None:
            ordered.append(record)
            for child in imported.get(str(record["path"]), []):
                place(child)

        for record in self.taken:
            if record["why"] != "import":
                place(record)
        self.taken = ordered

    def loaded(self) -> list[Record]:
        return list(self.taken)

    def records(self) -> list[Record]:
        return self.taken + self.left


def received(data: bytes, known: Provider, why: str = "always") -> bytes:
    """The file's text as the client hands it to the model (the table's `text`); an imported
    file a client inlines in the importing one is as it is on disk."""
    spec = known.data.get("text") or {}
    if why == "import" and spec.get("inlines_imports"):
        return data
    if why == "import" and spec.get("trims_imports"):
        return data.decode("utf-8", errors="replace").strip().encode("utf-8")
    strips = spec.get("strips") or ()
    trims = spec.get("trims") or (spec.get("trims_read") and why in ("nested", "scoped"))
    if not strips and not trims:
        return data
    text = data.decode("utf-8", errors="replace")
    if "front-matter" in strips:
        text = _without_front_matter(text)
    if "html-comments" in strips:
        text = _without_comments(text)
    if trims:
        text = text.strip()
    return text.encode("utf-8")


def _without_front_matter(text: str) -> str:
    if not text.startswith("---\n"):
        return text
    end = text.find("\n---\n", 3)
    return text if end < 0 else text[end + 5 :]


def _without_comments(text: str) -> str:
    """HTML comments on lines of their own, outside fenced code, removed with their lines."""
    out: list[str] = []
    fenced = False
    inside = False
    for line in text.split("\n"):
        stripped = line.strip()
        if not inside and stripped.startswith("```"):
            fenced = not fenced
        if not fenced and not inside and stripped.startswith("<!--"):
            if "-->" in stripped and not stripped.endswith("-->"):
                out.append(line)  # text after the comment on its line: kept as it is
                continue
            inside = True
        if inside:
            inside = not stripped.endswith("-->")
            continue
        out.append(line)
    return "\n".join(out)


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
