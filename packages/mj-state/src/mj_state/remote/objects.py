"""Commits written into the store as git's own loose objects: the zlib-deflated
`<type> <size>\\0<content>`, filed under its hash (SHA-1, or SHA-256 in a repository of that
format), each blob, tree and commit in git's byte layout (gitformat-loose(5); a tree's entries
`<mode> <name>\\0<raw id>` sorted by name, a directory's name compared with `/` after it).

Why not `git fast-import`: a claim is three small objects, and fast-import is a process of its
own for them, a sixth to a quarter of the push that follows (`docs/PERFORMANCE.md`, "The
remote"); written here they cost none. A test holds every id written here equal to the one git
computes for the same object, and `git fsck` to the store.
"""

from __future__ import annotations

import importlib
import os
import zlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any


def _hasher(store: Path) -> Callable[[bytes], Any]:
    """The repository's object hash: SHA-256 when its config says so, else SHA-1 (CPython's
    own modules first: loading OpenSSL for three small objects costs more than hashing them)."""
    config = (store / "config").read_text(encoding="utf-8", errors="replace")
    sha256 = "objectformat = sha256" in config.replace("\t", " ").lower()
    name = "sha256" if sha256 else "sha1"
    try:
        module = importlib.import_module("_" + name)
    except ImportError:  # pragma: no cover - an interpreter built without it
        module = importlib.import_module("hashlib")
    hasher: Callable[[bytes], Any] = getattr(module, name)
    return hasher


class Writer:
    """Objects into one store; each is written once (an object already there is kept)."""

    __slots__ = ("_hash", "objects")

    def __init__(self, store: Path) -> None:
        self.objects = store / "objects"
        self._hash = _hasher(store)

    def put(self, kind: bytes, data: bytes) -> str:
        raw = b"%s %d\0%s" % (kind, len(data), data)
        oid = str(self._hash(raw).hexdigest())
        directory = self.objects / oid[:2]
        target = directory / oid[2:]
        if not target.exists():
            directory.mkdir(exist_ok=True)
            temp = directory / f"tmp_obj_{os.getpid()}_{oid[2:10]}"
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o444)
            try:
                os.write(fd, zlib.compress(raw, 1))
            finally:
                os.close(fd)
            os.replace(temp, target)
        return oid

    def tree(self, files: dict[str, bytes]) -> str:
        """The tree of `files` (path → content, `/` separating directories)."""
        here: dict[str, bytes] = {}
        below: dict[str, dict[str, bytes]] = {}
        for path, data in files.items():
            head, sep, rest = path.partition("/")
            if sep:
                below.setdefault(head, {})[rest] = data
            else:
                here[head] = data
        entries = [
            (name.encode(), b"100644", self.put(b"blob", data)) for name, data in here.items()
        ]
        entries += [(name.encode(), b"40000", self.tree(sub)) for name, sub in below.items()]
        entries.sort(key=lambda e: e[0] + (b"/" if e[1] == b"40000" else b""))
        return self.put(b"tree", b"".join(b"%s %s\0%s" % (mode, name, bytes.fromhex(oid))
                                          for name, mode, oid in entries))  # fmt: skip

    def commit(self, tree: str, parent: str | None, who: str, message: str) -> str:
        """A commit of `tree` on `parent`, `who` (`name <mail> <epoch> +0000`) its author and
        committer."""
        lines = [f"tree {tree}", *([f"parent {parent}"] if parent else []),
                 f"author {who}", f"committer {who}", "", message]  # fmt: skip
        return self.put(b"commit", ("\n".join(lines) + "\n").encode())
