"""What the remote held earlier, as a trusted run of `verify` recorded it: the witness file.

A CI clone starts empty, and a ledger rewritten and recomputed from its first line and
force-pushed is one chain that only grew (CLI-REFERENCE Decision 17): the remote alone cannot
say what it held before. The run that judged `base` can: `verify --witness-out FILE` records
each published ledger as it judged it (its ref, its commit, the hash of each of its lines), and
the run that judges the next range reads it back with `--witness FILE`. Each ledger the file
names must still be there, its lines the recorded ones with lines added.

The file: `{"format": 1, "head": <the head that run judged>, "ledgers": [{"ref", "commit",
"count", "lines": [<mj_state.ledger.chain digest of each line>]}]}`. A file that is not one is 2,
naming the file and the key.
"""

from __future__ import annotations

import re

from mj_core import files
from mj_core.errors import MjError
from mj_core.errors import UsageError
from mj_core.stream import jsonl

from mj_state.remote import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

LIMIT = (256 * 1024 * 1024, 256 * 1024 * 1024)  # a digest a line: 4 million lines
_HEX = re.compile(r"^[0-9a-f]{40,64}$")
_DIGEST = re.compile(r"^[0-9a-f]{64}$")


def read(path: Path, shown: str) -> Record:
    """The `verify-witness` fact of the file at `path` (`shown` as the user named it)."""
    try:
        data = files.read_capped(path, shown, LIMIT)
        value = jsonl.loads_line(data.strip())
    except FileNotFoundError:
        raise UsageError(f"verify: --witness {shown}: no such file") from None
    except (OSError, ValueError, MjError) as exc:
        raise UsageError(f"verify: --witness {shown}: not a witness file ({exc})") from None
    if type(value) is not dict or value.get("format") != 1:
        raise UsageError(f"verify: {shown}: key format: 1 expected")
    head = value.get("head")
    if type(head) is not str or not _HEX.match(head):
        raise UsageError(f"verify: {shown}: key head: a commit id expected")
    listed = value.get("ledgers")
    if type(listed) is not list:
        raise UsageError(f"verify: {shown}: key ledgers: a list expected")
    ledgers = [_ledger(item, f"{shown}: key ledgers[{n}]") for n, item in enumerate(listed)]
    return {"kind": "fact", "fact": "verify-witness", "path": shown, "head": head,
            "ledgers": ledgers}  # fmt: skip


def _ledger(item: object, where: str) -> Record:
    if type(item) is not dict or set(item) != {"ref", "commit", "count", "lines"}:
        raise UsageError(f"verify: {where}: ref, commit, count and lines expected")
    ref, commit, lines = item["ref"], item["commit"], item["lines"]
    parsed = layout.parse(ref) if type(ref) is str else None
    if parsed is None or parsed[0] != "ledger":
        raise UsageError(f"verify: {where}.ref: a refs/majordomus/ledger/<clone-id> expected")
    if type(commit) is not str or not _HEX.match(commit):
        raise UsageError(f"verify: {where}.commit: a commit id expected")
    if type(lines) is not list or not all(type(d) is str and _DIGEST.match(d) for d in lines):
        raise UsageError(f"verify: {where}.lines: a list of line hashes expected")
    if item["count"] != len(lines):
        raise UsageError(f"verify: {where}.count: {len(lines)} (the lines listed) expected")
    return {"ref": ref, "commit": commit, "count": len(lines), "lines": lines}
