"""`update`'s hand-over of the instruction files `init --import` read.

A file a project rule names in `imported_from` is judged by its pieces, cut as the import cut
them (`mj_policy.importread`), each carried (`mj_policy.importcover`) or not:
- a projection target (CLAUDE.md, AGENTS.md, a nested AGENTS.md, …) that carries no stamp or
  no region yet: every piece carried → `imported`, written as the projection alone, without
  `--force`; any piece not carried → `unimported`, refused (15) naming its lines (`--force`
  writes the projection anyway). A host that has its region already keeps text of its own
  beside it, as region mode promises; only text every piece of which a rule carries goes;
- an instruction file no projection writes (`.cursorrules`, a `.cursor/rules/*.mdc` or
  `.github/instructions/*.instructions.md` of the person's, a nested CLAUDE.md): every piece
  carried → removed, as an orphan is, once every provider that read it is one the policy
  projects into (else left for that provider); any piece not carried → refused as a
  hand-edited orphan is.
A file no rule names, and a file with no text left to import, are never touched here.
"""

from __future__ import annotations

from mj_policy import importcover
from mj_policy import orphans
from mj_policy import projectiontargets as targets

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    from mj_policy.importsources import Source
    from mj_policy.layer import Layer
    from mj_policy.projections import Inputs
    from mj_policy.projections import Projection
    from mj_policy.projectiontargets import Judged

IMPORTED = "imported"
UNIMPORTED = "unimported"


class Handed(targets.Judged):
    """A target judged by its imported pieces; `why` names the lines no rule holds."""

    __slots__ = ("why",)
    why: str


class Leftover(orphans.Orphan):
    """An imported instruction file no projection writes."""

    __slots__ = ("why",)
    why: str
    state = IMPORTED

    def check_message(self) -> str:
        if self.intact:
            return "every piece of it is a rule now — `majordomus update` removes it"
        return self.why

    def refusal_message(self) -> str:
        return self.why


def apply(
    layer: Layer, data: Inputs, judged: list[Judged], planned: list[Projection]
) -> tuple[list[Judged], list[orphans.Orphan]]:
    coverage = importcover.load(layer)
    if coverage is None:
        return judged, []
    named = coverage.files()
    out = [_judge(layer.root, item, coverage, data) if _target(item) in named else item
           for item in judged]  # fmt: skip
    wanted = {p.target for p in planned}
    served = _served(planned)
    left = [_leftover(layer.root, path, coverage, served) for path in sorted(named - wanted)]
    return out, [item for item in left if item is not None]


def _target(item: Judged) -> str:
    return item.rendered.projection.target


def _judge(root: Path, item: Judged, coverage: importcover.Coverage, data: Inputs) -> Judged:
    from mj_policy import importsources
    from mj_policy import region

    projection = item.rendered.projection
    if item.old is None or item.state == targets.HAND_EDITED:
        return item
    if projection.mode == "file" and item.state != targets.UNSTAMPED:
        return item
    source = importsources.classify(projection.target)
    if source is None:
        return item
    pieces, missing = _pieces(root, source, coverage)
    if not pieces or (missing and item.state not in (targets.UNSTAMPED, targets.APPEND)):
        return item  # a host's own text beside the region it already has stays its own
    new = item.new
    if projection.mode == "region":
        content, body = item.rendered.content, item.rendered.generated
        new = region.splice("", None, item.rendered.inputs, content, body)
    state = UNIMPORTED if missing else IMPORTED
    handed = Handed(item.rendered, state, item.old, new, item.old, new)
    handed.why = missing
    return handed


def _pieces(root: Path, source: Source, coverage: importcover.Coverage) -> tuple[int, str]:
    """How many pieces the file holds, and the lines of those no rule carries ('')."""
    from mj_policy import importfacts
    from mj_policy import importread

    reading = importread.read(root, source)
    records = [r for r in importfacts.records(reading) if r["kind"] == "piece"]
    carried = [coverage.of(r) is not None for r in records]
    gaps = [
        f"{r['lines'][0]}-{r['lines'][1]}" for r, ok in zip(records, carried, strict=True) if not ok
    ]
    missing = (
        f"lines {', '.join(gaps)} hold text no rule carries, in a file imported before — "
        "import them with `majordomus init --import --extend`"
        if gaps
        else ""
    )
    return len(records), missing


def _served(planned: list[Projection]) -> set[str]:
    """The providers the policy reaches: each declared one, and each whose target it writes."""
    from mj_policy import providers

    names = {p.provider for p in planned}
    written = {p.target for p in planned}
    return names | {k for k, v in providers.table().items() if v.target in written}


def _leftover(
    root: Path, path: str, coverage: importcover.Coverage, served: set[str]
) -> Leftover | None:
    import os

    from mj_core import confine

    from mj_policy import importsources

    source = importsources.classify(path)
    full = root / path
    if source is None or not os.path.isfile(full) or os.path.islink(full):
        return None
    if confine.check(root, path) is not None or not set(source.providers) <= served:
        return None
    if orphans.stamp_state(full, path) is not None:
        return None  # written by `update`: an orphan's business
    pieces, missing = _pieces(root, source, coverage)
    if not pieces:
        return None
    found = Leftover(source.providers[0], path, not missing)
    found.why = missing
    return found
