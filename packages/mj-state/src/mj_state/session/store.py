"""Episodes on disk: the open store, its pointer, the working contexts and the closed records.

An open episode is `state/sessions-open/<key>.yaml`, keyed by the provider session that opened
it, or `hand` (at most one) when nothing named one (Decision 6). `state/session-current.yaml`
is a relative symbolic link to the episode opened here last. Which episode a process belongs
to: the provider session named on the command line, else the one named in the environment
(`MAJORDOMUS_PROVIDER_SESSION`, `CLAUDE_CODE_SESSION_ID`) when it is open here, else the
pointer. Closed records live in `.ai/repo/sessions/`, one immutable file each.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from mj_core import limits
from mj_core.errors import ContractUnmet
from mj_core.errors import UsageError

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

OPEN = "sessions-open"
POINTER = "session-current.yaml"
HAND = "hand"
ENV_KEYS = ("MAJORDOMUS_PROVIDER_SESSION", "CLAUDE_CODE_SESSION_ID")
MODE = 0o600
_KEY = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"  # `re.match` compiles it when first asked
_SESSION_ID = r"^s-[0-9]{14}-[0-9a-f]{4}$"  # compiled on first use


def is_session_id(value: str) -> bool:
    """Whether `value` has the shape of an episode's id (`s-<14 digits>-<4 hex>`)."""
    return re.match(_SESSION_ID, value) is not None


def open_dir(state: Path) -> Path:
    return state / OPEN


def open_path(state: Path, key: str) -> Path:
    return open_dir(state) / f"{key}.yaml"


def closed_dir(root: Path) -> Path:
    return root / ".ai" / "repo" / "sessions"


def contexts_dir(root: Path) -> Path:
    return root / ".ai" / "local" / "session-contexts"


def is_key(key: object) -> bool:
    """Whether `key` names an open episode's file (a provider session id, or the hand key)."""
    return isinstance(key, str) and re.match(_KEY, key) is not None


def checked_key(key: str) -> str:
    """A provider session id usable as a file name; anything else is a usage error."""
    if not re.match(_KEY, key) or key == HAND:
        raise UsageError(
            f"--provider-session {key!r}: letters, digits, '.', '_' and '-' only (at most 128), "
            f"and not {HAND!r}"
        )
    return key


def env_key() -> str | None:
    for name in ENV_KEYS:
        value = os.environ.get(name)
        if value:
            return value
    return None


def here_key(state: Path, named: str | None = None) -> str | None:
    """The key of this process's episode: named → environment (if open here) → pointer."""
    if named:
        return named
    key = env_key()
    if key and re.match(_KEY, key) and open_path(state, key).is_file():
        return key
    return pointed(state)


def own(state: Path, root: Path) -> str:
    """The episode this process belongs to by its provider session ("" for none): a repair's
    ledger lines are never stamped with an episode it acts on through the pointer."""
    from mj_core.errors import MjError

    key = env_key()
    if not key or not open_path(state, key).is_file():
        return ""
    try:
        return str(read_open(state, key, root)["session_id"])
    except MjError:
        return ""


def pointed(state: Path) -> str | None:
    """The key the pointer names, when that episode is still open."""
    try:
        target = os.readlink(state / POINTER)
    except OSError:
        return None
    name = Path(target).name
    key = name.removesuffix(".yaml")
    if name == key or not open_path(state, key).is_file():
        return None
    return key


def open_keys(state: Path) -> list[str]:
    try:
        names = os.listdir(open_dir(state))
    except FileNotFoundError:
        return []
    return sorted(n[:-5] for n in names if n.endswith(".yaml") and not n.startswith("."))


def read_open(state: Path, key: str, root: Path) -> dict[str, Any]:
    """An open episode's record, strictly read: unparsable or an unknown key → 10."""
    from mj_core.schema import keys
    from mj_core.yaml import strict as yamlstrict

    path = open_path(state, key)
    shown = path.relative_to(root).as_posix()
    doc = yamlstrict.load_file(path, shown, limit=limits.RECORD)
    if not isinstance(doc.data, dict):
        raise ContractUnmet(f"{shown}:1:1: an open episode is a mapping")
    for where, name in keys.unknown_keys(doc, "session-open"):
        raise ContractUnmet(f"{where}: {name}: unknown key in an open episode")
    for name in ("session_id", "started_at", "owner", "worktree", "branch", "start_head"):
        if not isinstance(doc.data.get(name), str):
            raise ContractUnmet(f"{shown}:1:1: {name}: missing from the open episode")
    return dict(doc.data)


def _unlink(name: str, dir_fd: int) -> None:
    """Remove `name` in `dir_fd` if it is there (`contextlib` is not imported on the ledger's
    path for this alone)."""
    try:
        os.unlink(name, dir_fd=dir_fd)
    except FileNotFoundError:
        return  # not there: nothing to remove


def point(root: Path, state: Path, key: str | None) -> None:
    """Aim the pointer at episode `key`, or remove it (None). A link is made beside it, then
    renamed over it: a reader sees the old pointer or the new one."""
    from mj_core.write import confine

    where = confine.opened(state / POINTER, root)
    try:
        with confine.Faults(where.shown):
            if key is None:
                _unlink(where.name, where.fd)
                return
            temp = f".{POINTER}.{os.getpid()}"
            _unlink(temp, where.fd)
            os.symlink(f"{OPEN}/{key}.yaml", temp, dir_fd=where.fd)
            os.replace(temp, where.name, src_dir_fd=where.fd, dst_dir_fd=where.fd)
    finally:
        where.close()


def repoint_after_close(root: Path, state: Path, closed: str) -> None:
    """After `closed` ends: the pointer names the one episode still open, else nothing."""
    still = [key for key in open_keys(state) if key != closed]
    current = pointed(state)
    if current is not None and current != closed:
        return
    point(root, state, still[0] if len(still) == 1 else None)


def remove_open(root: Path, state: Path, key: str) -> None:
    from mj_core.write import confine

    where = confine.opened(open_path(state, key), root)
    try:
        with confine.Faults(where.shown):
            os.unlink(where.name, dir_fd=where.fd)
    except FileNotFoundError:
        pass
    finally:
        where.close()


def closed_names(root: Path) -> list[str]:
    """Closed record file names, newest first by the stamp in the name (never by mtime)."""
    try:
        entries = os.listdir(closed_dir(root))
    except FileNotFoundError:
        return []
    found = [n for n in entries if n.endswith(".md") and not n.startswith(".")]
    return sorted(found, reverse=True)


def load_closed(path: Path, root: Path) -> tuple[dict[str, Any], str]:
    """(front matter, body) of a closed record; unknown keys or another schema → 10."""
    from mj_core.schema import keys
    from mj_core.yaml import strict as yamlstrict

    shown = path.relative_to(root).as_posix()
    text = yamlstrict.read_text(path, shown, limits.RECORD)
    doc, body, _ = yamlstrict.split_front_matter(text, shown)
    if not isinstance(doc.data, dict):
        raise ContractUnmet(f"{shown}:2: front matter is not a mapping")
    for where, name in keys.unknown_keys(doc, "session"):
        raise ContractUnmet(f"{where}: {name}: unknown key in a session record")
    if doc.data.get("schema") != "session/v1":
        raise ContractUnmet(f"{shown}:2: schema: not session/v1, which this majordomus reads")
    return dict(doc.data), body.lstrip("\n")


def recorded_ids(root: Path) -> dict[str, list[str]]:
    """session id → the names of its closed records (from the names alone, no file read)."""
    from mj_core import ids

    out: dict[str, list[str]] = {}
    for name in closed_names(root):
        found = ids.session_record(name)
        if found is not None:
            out.setdefault(found[0], []).append(name)
    return out
