"""Doctor's view of the decision records and the skills: every defect `adr check` and `skills
check` name (a record with an unknown status, a reference that names nothing, a skill without
its sections), so a layer that fails either fails doctor too.

`facts` gathers (the same judges those commands run, nothing written: doctor writes no cache);
`adr_records` and `skill_records` judge from the facts alone. A section that holds nothing has
nothing here (a repository need keep neither).
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

    Record = dict[str, Any]


def facts(lay: Layer | None) -> Iterator[Record]:
    """The two facts; a section without a record (no `*.md` among the decision records, no
    folder among the skills) is one whose machinery is not loaded at all."""
    adrs: list[Record] = []
    skills: list[Record] = []
    count = [0, 0]
    if lay is not None and _holds(lay.section("adrs"), folders=False):
        from mj_policy.adr import stages as adrstages
        from mj_state.records import adr_check as adrcheck

        model = adrcheck.model(lay)
        if model.records:
            adrs = [f.record() for f in adrstages.check(lay.root, model)]
        count[0] = len(model.records)
    if lay is not None and _holds(lay.section("skills"), folders=True):
        from mj_policy.skills import model as skillmodel
        from mj_policy.skills import stages as skillstages

        found = skillmodel.load(lay)
        if found.skills:
            skills = [r for r in skillstages.check(found) if r.get("kind") == "finding"]
        count[1] = len(found.skills)
    yield {"kind": "fact", "fact": "adr-records", "records": count[0], "findings": adrs}
    yield {"kind": "fact", "fact": "skill-records", "records": count[1], "findings": skills}


def _holds(directory: Path, *, folders: bool) -> bool:
    """Whether the section's directory holds what its model reads: a folder (skills), a
    `*.md` file (decision records). A directory that is not there holds nothing."""
    import os

    try:
        with os.scandir(directory) as entries:
            if folders:
                return any(entry.is_dir() for entry in entries)
            return any(e.name.endswith(".md") and e.is_file() for e in entries)
    except (FileNotFoundError, NotADirectoryError):
        return False


def _told(facts: Facts, name: str) -> Iterator[Finding]:
    told = facts.facts.get(name)
    if told and told.get("records"):
        yield from (Finding.from_record(record) for record in told["findings"])


def adr_records(facts: Facts) -> Iterator[Finding]:
    yield from _told(facts, "adr-records")


def skill_records(facts: Facts) -> Iterator[Finding]:
    yield from _told(facts, "skill-records")
