"""Every credential in the tracked tree, for the ratchet's hard zero: where it is and of which
kind, never the value.

Each tracked file is read by the ratchet once; its text goes to the one detector
(`mj_core.credentials.detect.find`, with the file's path, so the keyword plugin follows the
library's
rules for its type). What a file's content held is kept in `.ai/local/cache/secrets.json`
under the SHA-256 of that content and the detector's own version (the library's and our
modules'), so a run reads only what changed and imports the library only for that. The cache
is never a source: a missing, corrupt or foreign one is empty, a cache that cannot be written
changes no verdict.
"""

from __future__ import annotations

from pathlib import Path

from mj_core.errors import MjError
from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

NAME = "secrets.json"
_MODULES = ("detect", "gate", "scan", "shapes")


def version() -> str:
    """The detector's version: the library's, and a digest of our modules' source."""
    import hashlib  # only a run that scans the tree hashes
    import importlib.util

    from mj_core.credentials import detect as credentials

    spec = importlib.util.find_spec("detect_secrets")  # located, not imported
    origin = Path(spec.origin) if spec is not None and spec.origin else None
    library = origin.with_name("__version__.py").read_text() if origin is not None else "none"
    here = Path(credentials.__file__).parent
    digest = hashlib.sha256(library.encode())
    for module in _MODULES:
        digest.update((here / f"{module}.py").read_bytes())
    return digest.hexdigest()[:16]


class Scan:
    """The hits of one run over the tracked tree, from the cache where it holds."""

    __slots__ = ("changed", "hits", "kept", "path", "root", "seen", "version")

    def __init__(self, root: Path) -> None:
        self.root = root
        self.path = root / ".ai" / "local" / "cache" / NAME
        self.version = version()
        self.kept: dict[str, list[list[Any]]] = {}
        self.seen: dict[str, list[list[Any]]] = {}
        self.hits: list[Record] = []
        self.changed = False
        try:
            data = jsonl.loads_line(self.path.read_bytes())
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and data.get("version") == self.version:
            files = data.get("files")
            self.kept = files if isinstance(files, dict) else {}

    def file(self, relative: str, data: bytes) -> None:
        """Scan one tracked file's bytes (or take what the cache kept for them)."""
        import hashlib

        key = hashlib.sha256(data).hexdigest()
        found = self.seen.get(key, self.kept.get(key))
        if not isinstance(found, list):
            from mj_core.credentials import detect as credentials

            text = data.decode("utf-8", errors="replace")
            found = [[s.line, s.kind] for s in credentials.find(text, name=relative)]
            self.changed = True
        self.seen[key] = found
        self.hits.extend({"path": relative, "line": line, "class": kind} for line, kind in found)

    def save(self) -> None:
        """Keep what this run saw (and only that); a failure to write is not an error."""
        if not self.changed and set(self.kept) == set(self.seen):
            return
        from mj_core.write import atomic

        data = jsonl.dumps({"version": self.version, "files": dict(sorted(self.seen.items()))})
        try:
            atomic.create(self.path, data, mode=0o600, replace=True, root=self.root,
                          durable=False)  # fmt: skip
        except (MjError, OSError):  # the cache only saves time
            return
