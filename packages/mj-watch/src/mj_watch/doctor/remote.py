"""Doctor's word on the remote, from the last sync's mirror (no connection): the ledger still
holds what the remote witnessed (`mj_state.mirror.witness`; a rewritten chain is a FAIL naming
the first line that differs), and the pre-push hook publishes it (`majordomus sync`, declared
in the policy's `enforcement:`; `enforcement_wiring` proves the hook line is really there)."""

from __future__ import annotations

from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_watch.doctor.facts_view import Facts

LEDGER = ".ai/local/state/ledger.jsonl"
ENTRY = (
    "enforcement: - name: sync-on-push, path: majordomus, args: [sync], wired_by: git-hook:pre-push"
)


def wired(enforcement: list[Any]) -> bool:
    """Whether an enforcement entry runs `majordomus sync` before a push."""
    for entry in enforcement:
        if not isinstance(entry, dict) or [str(a) for a in entry.get("args") or []] != ["sync"]:
            continue
        by = str(entry.get("wired_by") or "")
        if by == "git-hook:pre-push" or by.startswith("pre-commit:"):
            return True
    return False


def remote_witness(facts: Facts) -> Iterator[Finding]:
    told = facts.facts.get("remote-witness")
    if told is None:
        return
    from mj_state import mirror

    yield from mirror.witness_findings(told.get("witness"), LEDGER)
    if not told.get("wired"):
        message = (
            f"the policy names remote {told.get('remote')} but no hook publishes the ledger "
            f"before a push: add `{ENTRY}` and install the line `majordomus init --extend` prints"
        )
        yield Finding("WARN", "remote", "enforcement", message, "majordomus init --extend")
