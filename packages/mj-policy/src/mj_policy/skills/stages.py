"""`mj-policy skills --view list|check` and `mj-policy skill-show <id>`: the repository's skills
read back (read-only).

`list` names every skill, an invalid one included, in discovery order; `show` is the path and
then the file (an unknown id is 12, naming `skills list`); `check` FAILs every defect (10),
WARNs when there is no skill at all (never a silent pass) and ends with the counts.
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.errors import UsageError
from mj_core.findings import Finding
from mj_core.stream.stage import Stage

from mj_policy.layer import loader as layer_mod
from mj_policy.skills import model as skillmodel

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

CHECK = "majordomus skills check"


def check(found: skillmodel.Skills) -> Iterator[Record]:
    from mj_core import share

    share.read_text("allow", "skill.txt")  # a broken install is 13, never a pass
    failures = 0
    for item in found.skills:
        for where, message in item.problems:
            failures += 1
            yield Finding("FAIL", "skill", where, message, CHECK).record()
    valid = [s for s in found.skills if not s.problems]
    examples = sum(len(s.examples) for s in found.skills)
    if not found.skills:
        said = f"no skill in {found.directory}/ — add <id>/SKILL.md (schema skill/v1)"
        yield Finding("WARN", "skill", found.directory, said, "ls " + found.directory).record()
    elif valid:
        names = ", ".join(s.id for s in valid[:5]) + (" …" if len(valid) > 5 else "")
        yield Finding("OK", "skill", f"{len(valid)} skill(s)", names).record()
    yield {"kind": "skill", "view": "counts", "discovered": len(found.skills),
           "valid": len(valid), "examples": examples, "references": found.references,
           "failures": failures}  # fmt: skip


def show(found: skillmodel.Skills, ident: str | None, root: Path) -> Iterator[Record]:
    if not ident:
        raise UsageError("skills show: name a skill id")
    item = found.by_id().get(ident)
    if item is None or not (root / item.path).is_file():
        known = ", ".join(s.id for s in found.skills) or "none"
        raise MissingArtifact(f"{ident}: no such skill in {found.directory} (skills: {known}) "
                              "— `majordomus skills list` names them")  # fmt: skip
    text = (root / item.path).read_text(encoding="utf-8")
    yield {"kind": "skill", "view": "show", "id": item.id, "path": item.path, "text": text}


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    lay = layer_mod.load(context.root())
    found = skillmodel.load(lay, save=True)
    if options.view == "list":
        yield from (s.record() for s in found.skills)
    else:
        yield from check(found)


def _show(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    lay = layer_mod.load(context.root())
    yield from show(skillmodel.load(lay), options.id, lay.root)


STAGES = {"skills": Stage(_run), "skill-show": Stage(_show)}
