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

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Row = list[Any]

SOURCES = ".ai/repo/knowledge/sources.yaml"  # named by a finding when the graph cannot be read


def nodes(root: Path) -> list[Row]:
    """The node rows (`[id, node kind, path, title, …]`, in id order) whose path git tracks."""
    from mj_knowledge import stages

    fact = stages.index_fact(root)
    rows = stages.compute(root, fact, ("nodes",), store=False)["nodes"]
    tracked = _tracked(str(fact["listing"]))
    listed = rows if isinstance(rows, list) else []  # a forged cache may hold anything
    return [row for row in listed if _shaped(row) and row[2] in tracked]


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
        from mj_knowledge import extract

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
