"""Doctrine majordomus.retention-caps: the checkout's stores stay under the policy's caps.

`ledger.jsonl` lines against `ledger.retention_max_lines`; the files in `handovers/` and
`checkpoints/` against `handover.retention_max_files` and `checkpoint.retention_max_files`.
"""

from __future__ import annotations

import os
import shlex

from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_watch.factview import Facts


CATEGORY = "retention"
STATE = ".ai/local/state"


def _cap(policy: dict[str, Any], section: str, key: str) -> int | None:
    value = (policy.get(section) or {}).get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


FOLDERS = (("handover", "handovers"), ("checkpoint", "checkpoints"))


def counts(root: Path, lines: int | None = None) -> dict[str, Any]:
    """The `retention` fact: the ledger's lines (`lines` when the caller has counted them
    already) and the files of each record store."""
    if lines is None:
        path = root / STATE / "ledger.jsonl"
        lines = path.read_bytes().count(b"\n") if path.is_file() else 0
    return {
        "kind": "fact",
        "fact": "retention",
        "ledger_lines": lines,
        "files": {folder: _files(root / STATE / folder) for _, folder in FOLDERS},
    }


def _files(directory: Path) -> int:
    if not directory.is_dir():
        return 0
    with os.scandir(directory) as entries:  # each entry's type without a stat of its own
        return sum(1 for e in entries if e.is_file() and not e.name.startswith(".mj-tmp-"))


def retention_caps(facts: Facts) -> Iterator[Finding]:
    if facts.layer is None:
        return
    policy = facts.layer.policy.data
    told = facts.get("retention")
    ledger = f"{STATE}/ledger.jsonl"
    lines = int(told.get("ledger_lines") or 0)
    yield _judge(
        ledger,
        lines,
        _cap(policy, "ledger", "retention_max_lines"),
        "lines",
        reproduce=f"wc -l {shlex.quote(ledger)}",
        fix="majordomus history --rotate",
    )
    for section, folder in FOLDERS:
        relative = f"{STATE}/{folder}"
        count = int((told.get("files") or {}).get(folder) or 0)
        cap = _cap(policy, section, "retention_max_files")
        reproduce = f"ls -1 {shlex.quote(relative)} | wc -l"
        fix = f"majordomus {section} --prune"
        yield _judge(relative + "/", count, cap, "files", reproduce=reproduce, fix=fix)


def _judge(
    subject: str, count: int, cap: int | None, unit: str, *, reproduce: str, fix: str
) -> Finding:
    if cap is None:
        return Finding("INFO", CATEGORY, subject, f"{count} {unit}; the policy sets no cap")
    if count > cap:
        message = f"{count} {unit}, over the cap of {cap} — `{fix}` brings it back under"
        return Finding("FAIL", CATEGORY, subject, message, reproduce)
    return Finding("OK", CATEGORY, subject, f"{count} {unit}, cap {cap}")
