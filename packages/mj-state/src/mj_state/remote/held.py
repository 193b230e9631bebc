"""This clone's own claims, as it last left them: `.ai/local/remote/claims.json`, beside the
last sync's mirror (`mirror.json`, written here too). Both are replaced whole, atomically,
under `.ai/local/remote/lock`, which every remote writer of this checkout holds.

A claim of this clone is `held` (on the remote, at `commit`), `unshared` (taken while the remote
could not be reached; the next sync publishes it) or `releasing` (its task finished or its issue
is done; the next sync publishes the release). Each keeps the document it was published with,
so a renewal or a release is that document again, with a new lease or state.
"""

from __future__ import annotations

from mj_core import clock
from mj_core import files
from mj_core import limits
from mj_core.errors import MjError
from mj_core.stream import jsonl
from mj_core.write import atomic

from mj_state import mirror

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from mj_core.write.appends import Locked
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

NAME = "claims.json"


def lock(layer: Layer) -> Locked:
    return atomic.locked(mirror.directory(layer) / "lock", root=layer.root)


def read(layer: Layer) -> list[Record]:
    """This clone's claims; none when the file is missing or unreadable."""
    try:
        value = jsonl.loads_line(
            files.read_capped(mirror.directory(layer) / NAME, NAME, limits.LEDGER)
        )
    except (OSError, ValueError, MjError):
        return []
    claims = value.get("claims") if type(value) is dict else None
    return (
        [c for c in claims if type(c) is dict and type(c.get("ref")) is str]
        if type(claims) is list
        else []
    )


def write(layer: Layer, claims: list[Record]) -> None:
    data = jsonl.dumps({"format": 1, "claims": claims})
    atomic.create(mirror.directory(layer) / NAME, data, mode=0o600, replace=True, root=layer.root)


def entry(ref: str, doc: Record, state: str, commit: str | None) -> Record:
    return {"ref": ref, "state": state, "commit": commit, "claim": doc}


def put(claims: list[Record], new: Record) -> list[Record]:
    """`claims` with `new` in place of the entry for its ref."""
    return [c for c in claims if c["ref"] != new["ref"]] + [new]


def write_mirror(layer: Layer, name: str, clone: str, known: Any) -> Record:
    """The last sync's mirror, from what `reading.read` found; returned as written."""
    snapshot = {
        "format": 1,
        "remote": name,
        "synced_at": clock.iso(clock.now()),
        "clone": clone,
        "ledger": known.ledger,
        "claims": known.claims,
        "problems": known.problems,
    }
    data = jsonl.dumps(snapshot)
    atomic.create(
        mirror.directory(layer) / mirror.MIRROR, data, mode=0o600, replace=True, root=layer.root
    )
    return snapshot
