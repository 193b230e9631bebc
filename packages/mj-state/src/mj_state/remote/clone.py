"""This clone's stable id, `c-<16 hex>`, kept in `.ai/local/remote/clone-id`: made once, on the
first remote command, and never changed by the tool. It names this checkout's published ledger
(`refs/majordomus/ledger/<clone-id>`) and every claim it holds."""

from __future__ import annotations

from mj_core import files
from mj_core import ids
from mj_core.errors import Refused
from mj_core.write import atomic

from mj_state import mirror
from mj_state.remote import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mj_policy.layer.loader import Layer

NAME = "clone-id"


def clone_id(layer: Layer) -> str:
    """The id, made (atomically, never overwritten) when there is none yet."""
    path = mirror.directory(layer) / NAME
    for _ in range(2):
        try:
            text = files.read_bytes(path).decode("ascii", "replace").strip()
        except FileNotFoundError:
            made = f"c-{ids.random_hex(16)}"
            try:
                atomic.create(path, f"{made}\n".encode(), mode=0o600, root=layer.root)
            except Refused:
                continue  # another process made it first: read theirs
            return made
        if not layout.clone_ok(text):
            raise Refused(
                f"{layer.relative(path)}: not a clone id (c- and 16 hex digits) — it names this "
                "clone's published ledger; put the id back, nothing was sent"
            )
        return text
    raise Refused(f"{layer.relative(path)}: could not be read or made")
