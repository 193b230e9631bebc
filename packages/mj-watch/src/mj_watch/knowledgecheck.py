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

    from mj_policy.layer import Layer

    from mj_watch.factview import Facts


def fact(
    root: Path, lay: Layer | None = None, values: list[Any] | None = None, base: str = "HEAD"
) -> dict[str, Any]:
    """The records' defects, each reference that names nothing included (with a layer to
    resolve it in), and each verified record without its promotion (with the ledger's
    `values`); `records: 0` when neither directory holds one."""
    from mj_knowledge import notes

    count = sum(len(notes.listed(root, d)) for d in (notes.CANDIDATES, notes.CURATED))
    found = notes.findings(root) if count else []
    if count and lay is not None:
        from mj_state import recordrefs

        found += recordrefs.knowledge(lay)
    if count and values is not None:
        found += unpromoted(root, values, base)
    return {"kind": "fact", "fact": "knowledge-records", "records": count, "findings": found}


def unpromoted(root: Path, values: list[Any], base: str) -> list[dict[str, Any]]:
    """A FAIL for each `verified` record under `curated/` that no `knowledge.promoted` line of
    this checkout's ledger names and that is new or changed since `base` (the active task's
    start, else HEAD): only `knowledge promote` writes `verified`. One committed before `base`
    was judged where it was promoted (and by `verify`, which reads the published ledgers)."""
    from mj_knowledge import notes

    promoted = {str(v.get("knowledge")) for v in values
                if type(v) is dict and v.get("event") == "knowledge.promoted"}  # fmt: skip
    lacking = []
    for path in notes.listed(root, notes.CURATED):
        note = notes.read(root, path)
        name = path.rsplit("/", 1)[-1].removesuffix(".md")
        if note.text("status") == "verified" and name not in promoted:
            lacking.append(path)
    if not lacking:
        return []
    from mj_core import git

    code, changed, _ = git.run(
        "diff", "--name-only", "--no-renames", base, "--", *lacking, cwd=root
    )
    fresh = git.out("ls-files", "--others", "--exclude-standard", "--", *lacking, cwd=root)
    new = set(changed.splitlines() if code == 0 else lacking) | set((fresh or "").splitlines())
    said = "verified, but no knowledge.promoted line names it: only `knowledge promote` verifies"
    repro = "majordomus history --event knowledge.promoted --all; git log --oneline -- "
    return [Finding("FAIL", "knowledge", path, said, repro + path).record()
            for path in lacking if path in new]  # fmt: skip


def knowledge_records(facts: Facts) -> Iterator[Finding]:
    told = facts.facts.get("knowledge-records")
    if not told or not told.get("records"):
        return
    for record in told["findings"]:
        yield Finding.from_record(record)
    if not told["findings"]:
        said = f"{told['records']} record(s); each reads, in the directory its status names"
        yield Finding("OK", "knowledge", ".ai/repo/knowledge", said)
