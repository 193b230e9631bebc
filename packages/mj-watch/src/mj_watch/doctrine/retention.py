"""Doctrine majordomus.retention-caps: the checkout's stores stay under the policy's caps.

`ledger.jsonl` lines against `ledger.retention_max_lines`, counted as `history --rotate`
counts them (`mj_state.ledger.rotation`), so the rotation it names clears what it reports; the files
in `handovers/` and `checkpoints/` against `handover.retention_max_files` and
`checkpoint.retention_max_files`.
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

    from mj_watch.doctor.facts_view import Facts


CATEGORY = "retention"
STATE = ".ai/local/state"


def _cap(policy: dict[str, Any], section: str, key: str) -> int | None:
    value = (policy.get(section) or {}).get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


FOLDERS = (("handover", "handovers"), ("checkpoint", "checkpoints"))


def counts(root: Path, lines: int | None = None, values: list[Any] | None = None) -> dict[str, Any]:
    """The `retention` fact: the ledger's lines (`lines` when the caller has counted them
    already), whether it opens with a seal and where the active task's lines begin (from the
    parsed `values` when the caller has them; else read here), and the files of each record
    store."""
    from mj_state.ledger import rotation

    if lines is None or values is None:
        from mj_state.ledger import store as ledger

        found = ledger.scan(root / STATE / "ledger.jsonl")
        values = found.values
        if lines is None:  # newline-ended lines, as `wc -l` counts them
            lines = len(found.rows) - (1 if found.rows and not found.rows[-1][2] else 0)
    return {
        "kind": "fact",
        "fact": "retention",
        "ledger_lines": lines,
        "ledger_sealed": rotation.sealed(values),
        "ledger_held_from": rotation.held_from(values),
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
    yield _ledger(told, _cap(policy, "ledger", "retention_max_lines"))
    for section, folder in FOLDERS:
        relative = f"{STATE}/{folder}"
        count = int((told.get("files") or {}).get(folder) or 0)
        cap = _cap(policy, section, "retention_max_files")
        reproduce = f"ls -1 {shlex.quote(relative)} | wc -l"
        fix = f"majordomus {section} --prune"
        yield _judge(relative + "/", count, cap, "files", reproduce=reproduce, fix=fix)


def _ledger(told: dict[str, Any], cap: int | None) -> Finding:
    """The ledger's lines after its seal against the cap: FAIL when `history --rotate` would
    move some (it then clears this), WARN when the active task holds every line over it."""
    from mj_state.ledger import rotation

    ledger = f"{STATE}/ledger.jsonl"
    lines = int(told.get("ledger_lines") or 0)
    is_sealed, held = bool(told.get("ledger_sealed")), told.get("ledger_held_from")
    count = rotation.counted(lines, is_sealed=is_sealed)
    reproduce = f"wc -l {shlex.quote(ledger)}"
    said = f"{count} lines" + (" after its seal" if is_sealed else "")
    if cap is None or count <= cap:
        return _judge(ledger, count, cap, "lines", reproduce=reproduce, fix="")
    moves = rotation.movable(lines, cap, is_sealed=is_sealed, held=held)
    if moves:
        message = (f"{said}, over the cap of {cap} — `majordomus history --rotate` moves the "
                   f"oldest {moves} and brings it back under")  # fmt: skip
        return Finding("FAIL", CATEGORY, ledger, message, reproduce)
    message = (f"{said}, over the cap of {cap}, all of it the active task's from its start on: "
               "never archived, they rotate once the task ends")  # fmt: skip
    return Finding("WARN", CATEGORY, ledger, message, reproduce)


def _judge(
    subject: str, count: int, cap: int | None, unit: str, *, reproduce: str, fix: str
) -> Finding:
    if cap is None:
        return Finding("INFO", CATEGORY, subject, f"{count} {unit}; the policy sets no cap")
    if count > cap:
        message = f"{count} {unit}, over the cap of {cap} — `{fix}` brings it back under"
        return Finding("FAIL", CATEGORY, subject, message, reproduce)
    return Finding("OK", CATEGORY, subject, f"{count} {unit}, cap {cap}")
