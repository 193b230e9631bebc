"""The identity a record file names itself by, as `majordomus mcp` serves it.

A rule is its front matter's `id` (with `@<version>` when two files hold the same id); a
closed session its `session_id`; an ADR `adr-NNNN`, the number its file name begins with
(the number is allocated once and the slug may change); a skill its directory. Any other
record file is its file's stem. Only the front matter is read (its first lines); a file whose
front matter does not state its identity keeps its file's stem, so it is still served.
"""

from __future__ import annotations

import os
import re

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_state.search.catalogue_entry import Entry

_HEAD = 4096  # bytes read of a file for its front matter's identity
_ADR = re.compile(r"([0-9]{4})-[a-z0-9][a-z0-9-]*")
_VALUE = r"^{key}:[ \t]*['\"]?([A-Za-z0-9][A-Za-z0-9._-]*)['\"]?[ \t]*(?:#.*)?$"


def of(kind: str, path: str) -> str:
    """The id of the `kind` record held in the file at `path`."""
    stem = os.path.basename(path).rsplit(".", 1)[0]
    if kind == "skill":
        return os.path.basename(os.path.dirname(path))
    if kind == "adr":
        number = _ADR.fullmatch(stem)
        return f"adr-{number.group(1)}" if number else stem
    if kind == "session":
        return _front(path, "session_id") or stem
    if kind == "rule":
        ident, version = _front(path, "id"), _front(path, "version")
        return f"{ident}@{version}" if ident and version else ident or stem
    return stem


def unique(found: list[Entry]) -> list[Entry]:
    """Rules by their bare id where it names one file (`<id>@<version>` stays its alias), and
    by `<id>@<version>` where it names several."""
    bare = [entry.id.partition("@")[0] for entry in found]
    for entry, ident in zip(found, bare, strict=True):
        if "@" in entry.id and bare.count(ident) == 1:
            entry.alias, entry.id = entry.id, ident
    return found


def _front(path: str, key: str) -> str | None:
    """The plain value of `key:` in the file's front matter, or None."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(_HEAD).decode("utf-8", "replace")
    except OSError:
        return None
    if not head.startswith("---\n"):
        return None
    front = head[4:].split("\n---", 1)[0]
    found = re.search(_VALUE.format(key=re.escape(key)), front, flags=re.M)
    return found.group(1) if found else None
