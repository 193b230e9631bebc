"""Doctor's view of the knowledge records (SCHEMAS: a record under `candidates/` claiming
`verified` is refused by `check`, `doctor` and `knowledge check`): every defect
`knowledge check` names in `.ai/repo/knowledge/candidates/` and `curated/`.

`fact` gathers; `knowledge_records` judges from the fact alone. A repository with no records
has nothing here.
"""

from __future__ import annotations

from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer

    from mj_watch.doctor.facts_view import Facts


def fact(
    root: Path, lay: Layer | None = None, values: list[Any] | None = None, base: str = "HEAD"
) -> dict[str, Any]:
    """The records' defects, each reference that names nothing included (with a layer to
    resolve it in), and each verified record without its promotion (with the ledger's
    `values`); `records: 0` when neither directory holds one."""
    from mj_policy.knowledge import notes

    count = sum(len(notes.listed(root, d)) for d in (notes.CANDIDATES, notes.CURATED))
    found = notes.findings(root) if count else []
    if count and lay is not None:
        from mj_state.records import refs as recordrefs

        found += recordrefs.knowledge(lay)
    if count and values is not None:
        from mj_state.records.promote import unpromoted  # `knowledge check`'s judge as well

        found += unpromoted(root, values, base)
    return {"kind": "fact", "fact": "knowledge-records", "records": count, "findings": found}


def knowledge_records(facts: Facts) -> Iterator[Finding]:
    told = facts.facts.get("knowledge-records")
    if not told or not told.get("records"):
        return
    for record in told["findings"]:
        yield Finding.from_record(record)
    if not told["findings"]:
        said = f"{told['records']} record(s); each reads, in the directory its status names"
        yield Finding("OK", "knowledge", ".ai/repo/knowledge", said)
