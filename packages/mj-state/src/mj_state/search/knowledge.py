"""The knowledge nodes `search` and `majordomus mcp` read (CLI-REFERENCE §2.20, §2.21).

The listing is the knowledge graph's: its cache under `.ai/local/cache/` when the cache's key
matches git's index, else the graph compiled in memory and never written (both readers write
nothing). A listing is a claim, not a record, and the cache is a file this checkout can edit:
a row of the wrong shape is dropped, a node is kept only when git tracks its path, and what a
reader shows of a node is re-read from that file. A node states at most two things a line
can hold: its title, and the name its id is declared by (an issue's or a rule's `id:`, a
profile's `name:`); `search` shows the first line of the file that holds each, so a stale or
forged listing can hide a node but never invent a line.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Row = list[Any]

SOURCES = ".ai/repo/knowledge/sources.yaml"  # named by a finding when the graph cannot be read
OWN_KINDS = ("workspace", "deployment")  # declarations both readers read as kinds of their own
_LAST: dict[str, Any] = {}  # a long-lived reader's last index: its key, stamp and rows
_GIT_DIRS: dict[str, str] = {}


def nodes(root: Path) -> list[Row]:
    """The node rows (`[id, node kind, path, title, …]`, in id order) whose path git tracks,
    but for the declarations read as kinds of their own (`OWN_KINDS`).

    A process that asks again (the MCP server) reads the graph again only when the index's
    key has changed, and asks git for the index only when git's index file or the sources
    file has changed on disk since it last asked (git replaces the index whole, by rename)."""
    from mj_policy.knowledge import index as graphindex

    stamp = _stamp(root) if _LAST.get("root") == str(root) else None
    if stamp is not None and _LAST.get("stamp") == stamp:
        return list(_LAST["rows"])
    fact = graphindex.index_fact(root)
    if _LAST.get("root") != str(root) or _LAST.get("key") != fact["key"]:
        rows = graphindex.compute(root, fact, ("nodes",), store=False)["nodes"]
        tracked = _tracked(str(fact["listing"]))
        listed = rows if isinstance(rows, list) else []  # a forged cache may hold anything
        kept = [r for r in listed if _shaped(r) and r[2] in tracked and r[1] not in OWN_KINDS]
        _LAST.update(root=str(root), key=fact["key"], rows=kept)
    _LAST["stamp"] = stamp
    return list(_LAST["rows"])


def _stamp(root: Path) -> tuple[tuple[int, ...], ...] | None:
    """What git's index file and the sources file are on disk (None: git gives no directory)."""
    from mj_core.git import layout as gitlayout
    from mj_core.git import questions as git

    where = _GIT_DIRS.get(str(root))
    if where is None:
        layout = gitlayout.dirs(str(root))
        if layout is None:  # not the plain layout: git says where its directory is
            code, out, _ = git.run("rev-parse", "--absolute-git-dir", cwd=root)
            if code != 0:
                return None
            layout = (out.strip(), "")
        where = _GIT_DIRS[str(root)] = layout[0]
    return tuple(_stat(path) for path in (os.path.join(where, "index"), root / SOURCES))


def _stat(path: str | Path) -> tuple[int, ...]:
    try:
        got = os.stat(path)
    except OSError:
        return ()
    return (got.st_ino, got.st_size, got.st_mtime_ns, got.st_ctime_ns)


def _shaped(row: object) -> bool:
    return isinstance(row, list) and len(row) >= 4 and all(isinstance(v, str) for v in row[:4])


def _tracked(listing: str) -> set[str]:
    """The paths of `git ls-files -s -z` (each entry `<mode> <blob> <stage>\\t<path>`)."""
    return {entry.partition("\t")[2] for entry in listing.split("\0") if "\t" in entry}


def said(row: Row, needle: str) -> list[tuple[str, str | None]]:
    """What the node's file states of it that holds the (lower-cased) text: (the value, the
    key of the line that declares it, or None where any line may hold it)."""
    ident, title = str(row[0]), str(row[3])
    out: list[tuple[str, str | None]] = [(title, None)] if title.strip() else []
    prefix, _, name = ident.partition(":")
    key = _declared().get(prefix)
    if key and name:
        out.append((name, key))
    return [(value, key) for value, key in out if needle in value.lower()]


_DECLARED: dict[str, str] = {}


def _declared() -> dict[str, str]:
    """The id prefixes whose name the file declares, and the key it is declared by."""
    if not _DECLARED:
        from mj_policy.knowledge import extract

        _DECLARED.update(dict.fromkeys(extract.FRONT_ID.values(), "id"), **extract.FIELD_ID)
    return _DECLARED


def stating(lines: list[str], said: list[tuple[str, str | None]], needle: str) -> list[int]:
    """The indexes of the lines that state what was said, in file order: for each value the
    first line holding it (on a `key:` line when a key is given), if it holds the text."""
    found = set()
    for value, key in said:
        for index, line in enumerate(lines):
            if value in line and (key is None or line.lstrip(" -").startswith(f"{key}:")):
                if needle in line.lower():
                    found.add(index)
                break
    return sorted(found)
