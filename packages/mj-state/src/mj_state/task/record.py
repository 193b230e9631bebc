"""The task record `.ai/local/state/current.yaml`: read strictly, written atomically, archived.

Only `outcome` and `checkpoint_at` change after `start` (finish refreshes the git fields). A
terminal record is archived to `state/archive/<id>.yaml` by the next `start`; an active one
refuses it (15): no flag discards an active task.
"""

from __future__ import annotations

import os
from pathlib import Path

from mj_core.errors import ContractUnmet
from mj_core.errors import Refused
from mj_core.schema import full as schema
from mj_core.yaml import strict as yamlstrict

AUTHORED = ("id", "task", "profile", "owner", "scope", "started_at", "checkpoint_at", "outcome")
PROMISED = ("requires", "issue")  # after scope, when `start` was given them
COMPUTED = ("repository_id", "worktree", "worktree_id", "branch", "head", "working_tree")
OUTCOMES = ("active", "completed", "partial", "blocked", "no_match", "failed", "handed_over")
_COMMENT = "# computed from git at start; refreshed at finish; never authored\n"

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any
    from typing import Protocol

    class HasState(Protocol):
        """What this module needs of a layer: the repository root and the state directory."""

        @property
        def root(self) -> Path: ...

        @property
        def state(self) -> Path: ...


def current_path(layer: HasState) -> Path:
    return layer.state / "current.yaml"


def shown(layer: HasState, target: Path) -> str:
    """`target` as the repository-relative name used in messages."""
    try:
        return target.relative_to(layer.root).as_posix()
    except ValueError:
        return str(target)


def read_current(layer: HasState) -> dict[str, Any] | None:
    """The task record, or None when there is none. Bad content → 10 naming file:line:key."""
    target = current_path(layer)
    if not target.exists():
        return None
    return read_record(target, shown(layer, target))


def read_record(target: Path, name: str) -> dict[str, Any]:
    doc = yamlstrict.load_file(target, name)
    if not isinstance(doc.data, dict):
        raise ContractUnmet(f"{name}:1:1: a task record is a mapping of keys")
    problems = schema.quick_violations(doc, "current")
    if problems:
        where, message = problems[0]
        raise ContractUnmet(f"{where}: {message}")
    data: dict[str, Any] = doc.data
    return data


def render(record: dict[str, Any]) -> bytes:
    """The record in the shape of SCHEMAS.cs.md: authored keys, then the computed block."""
    authored = {key: record[key] for key in AUTHORED}
    if any(key in record for key in PROMISED):
        at = list(authored).index("scope") + 1
        items = list(authored.items())
        extra = [(key, record[key]) for key in PROMISED if key in record]
        authored = dict(items[:at] + extra + items[at:])
    computed = {key: record[key] for key in COMPUTED if key in record}
    text = yamlstrict.dump(authored) + "\n" + _COMMENT + yamlstrict.dump(computed)
    return text.encode("utf-8")


def write_current(layer: HasState, record: dict[str, Any], *, replace: bool) -> Path:
    """Publish the record atomically; an existing one is replaced only when `replace`."""
    from mj_core.write import atomic  # the writers' module: the readers of the copy never load it

    target = current_path(layer)
    atomic.create(target, render(record), mode=0o600, replace=replace)
    return target


def archive(layer: HasState, record: dict[str, Any], *, stray: bool = False) -> Path:
    """Copy an ended record to `state/archive/<id>.yaml`; an existing archive → 15.

    `stray`: a copy the ledger does not know (another checkout's, or one written by hand) is
    kept as it was found, whatever its outcome, under `<id>.stray.yaml`.
    """
    if record.get("outcome") == "active" and not stray:
        raise Refused(f"task {record.get('id')} is active; an active task is never archived")
    name = f"{record.get('id')}.stray.yaml" if stray else f"{record['id']}.yaml"
    target = layer.state / "archive" / name
    data = render(record) if not stray else yamlstrict.dump(record).encode("utf-8")
    from mj_core.write import atomic

    try:
        atomic.create(target, data, mode=0o600, replace=False)
    except Refused:
        raise Refused(
            f"{shown(layer, target)}: already archived; nothing was overwritten"
        ) from None
    return target


def default_owner() -> str:
    """Who runs this: `$USER`, else the login name `getpass.getuser` would give (the other
    login variables, then the password database), without importing `getpass` and `termios`."""
    for variable in ("USER", "LOGNAME", "LNAME", "USERNAME"):
        if os.environ.get(variable):
            return os.environ[variable]
    import pwd

    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:  # a user id with no entry (a bare container): name it by its number
        return f"uid-{os.getuid()}"
