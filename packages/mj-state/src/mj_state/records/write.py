"""The one write of `decisions.md` and `open-questions.md`: ledger line first, then one rename.

Under the file's exclusive lock (every writer of the file takes it, so none loses another's
entry) the file is read whole, the change is worked out, its ledger line is appended, and only
then is the whole new file published by one rename. Killed before the ledger line: nothing
happened. Killed between the two: a ledger line without its entry, which holds what
`recover records` needs to restore it (`mj_state.records.pairs`). Killed after: done. A reader
never sees half a file; a failed ledger append leaves the file as it was.
"""

from __future__ import annotations

import os

from mj_core import limits
from mj_core.errors import ContractUnmet

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    Change = Callable[[str], "tuple[str, Callable[[], object] | None] | None"]

MODE = 0o600


def rewrite(target: Path, change: Change, *, root: Path | None = None) -> bool:
    """`change(text)` gives (the new text, its ledger line's writer) or None (nothing to do);
    the text is the file's now, '' when it is new. Returns whether the file was rewritten."""
    from mj_core.write import atomic  # the writers' module: readers of the logs never load it

    with atomic.locked(target, MODE, root=root) as fd:
        text = _read(fd, target.name)
        planned = change(text)
        if planned is None:
            return False
        new, line = planned
        if line is not None:
            line()  # the ledger first: a line without its entry is what recover restores
        data = new.encode("utf-8", "surrogateescape")
        atomic.create(target, data, mode=MODE, replace=True, root=root)
    return True


def _read(fd: int, shown: str) -> str:
    size = os.fstat(fd).st_size
    if size > limits.LOG[0]:
        raise ContractUnmet(f"{shown}: over {limits.LOG[0]} bytes, the limit for this file")
    chunks: list[bytes] = []
    offset = 0
    while offset < size:
        chunk = os.pread(fd, size - offset, offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks).decode("utf-8", "surrogateescape")


def appended(text: str, block: str, *, gap: bool) -> str:
    """`text` with `block` after it: on a line of its own, after a blank line when `gap`."""
    if text and not text.endswith("\n"):
        text += "\n"
    return text + ("\n" if gap and text else "") + block
