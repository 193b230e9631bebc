"""`update`'s hand-over of the instruction files `init --import` read.

A file a project rule names in `imported_from` is judged by its pieces, cut as the import cut
them (`mj_policy.adoption.read`), each carried (`mj_policy.adoption.cover`) or not:
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

from mj_policy.adoption import cover as importcover
from mj_policy.projection import orphans
from mj_policy.projection import targets

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.adoption.sources import Source
    from mj_policy.layer.loader import Layer
    from mj_policy.projection.render import Inputs
    from mj_policy.projection.render import Projection
    from mj_policy.projection.targets import Judged

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
    layer: Layer,
    data: Inputs,
    judged: list[Judged],
    planned: list[Projection],
    coverage: importcover.Coverage,
) -> tuple[list[Judged], list[orphans.Orphan]]:
    """`judged` with each target `coverage`'s imported rules name judged by its pieces, and
    the imported files no projection writes."""
    named = coverage.files()
    seen = Seen(coverage, _in_full(judged))
    out = [_judge(layer.root, item, seen, data) if _target(item) in named else item
           for item in judged]  # fmt: skip
    wanted = {p.target for p in planned}
    served = _served(planned)
    left = [_leftover(layer.root, path, seen, served) for path in sorted(named - wanted)]
    return out, [item for item in left if item is not None]


class Seen:
    """What the projections carry: the imported rules, and for each provider the rules it is
    given in full (a rule past a budget is only a pointer there)."""

    __slots__ = ("coverage", "full")

    def __init__(self, coverage: importcover.Coverage, full: dict[str, set[str]]) -> None:
        self.coverage = coverage
        self.full = full

    def gap(self, piece: dict[str, Any], readers: tuple[str, ...]) -> str:
        """Why the piece would be lost by replacing its file ('' when it would not)."""
        carrier = self.coverage.carrier(piece)
        if carrier is None:
            return "" if self.coverage.said(piece) else "text"
        if piece["reach"] == "on-request":
            return ""
        short = [name for name in readers if carrier.key not in self.full.get(name, set())]
        return ", ".join(short)


def _in_full(judged: list[Judged]) -> dict[str, set[str]]:
    """Provider → the keys of the rules some file it reads carries in full: its own (an
    `@path` line its client expands counts), and those of the files of other providers its
    row's `also_loads` names."""
    from mj_policy import providers

    table = providers.table()
    readers: dict[str, set[str]] = {}
    for name, row in table.items():
        readers.setdefault(row.target, set()).add(name)
    out: dict[str, set[str]] = {}
    carried: dict[str, set[str]] = {}  # target → the rules it holds in full, for any reader
    for item in judged:
        projection, forms = item.rendered.projection, item.rendered.forms
        keys = {key for key, form in forms.items() if form in ("full", "import")}
        carried[projection.target] = {key for key, form in forms.items() if form == "full"}
        for name in {*projection.providers} | readers.get(projection.target, set()):
            out.setdefault(name, set()).update(keys)
    for name, row in table.items():  # and the files of others a client also loads
        for target, keys in carried.items():
            also = target in row.also_targets
            if also or any(target.startswith(d + "/") for d in row.also_rule_dirs):
                out.setdefault(name, set()).update(keys)
    return out


def _target(item: Judged) -> str:
    return item.rendered.projection.target


def _judge(root: Path, item: Judged, seen: Seen, data: Inputs) -> Judged:
    from mj_policy.adoption import sources as importsources
    from mj_policy.projection import region

    projection = item.rendered.projection
    if item.old is None or item.state == targets.HAND_EDITED:
        return item
    if projection.mode == "file" and item.state != targets.UNSTAMPED:
        return item
    source = importsources.classify(projection.target)
    if source is None:
        return item
    pieces, missing = _pieces(root, source, seen)
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


def _pieces(root: Path, source: Source, seen: Seen) -> tuple[int, str]:
    """How many pieces the file holds, and what replacing it would lose ('' for nothing): the
    lines no rule carries, and those a client that read them in full would get as a pointer."""
    from mj_policy.adoption import facts as importfacts
    from mj_policy.adoption import read as importread

    reading = importread.read(root, source)
    records = [r for r in importfacts.records(reading) if r["kind"] == "piece"]
    lost: dict[str, list[str]] = {}
    for record in records:
        why = seen.gap(record, source.providers)
        if why:
            lost.setdefault(why, []).append(f"{record['lines'][0]}-{record['lines'][1]}")
    said = []
    for why, spans in lost.items():
        if why == "text":
            said.append(
                f"lines {', '.join(spans)} hold text no rule carries, in a file imported "
                "before — import them with `majordomus init --import --extend`"
            )
        else:
            said.append(
                f"lines {', '.join(spans)} would reach {why} only as a pointer (past the "
                "always-loaded budget) — raise `context.always_loaded_budget_lines` in the "
                "policy, or shorten those rules"
            )
    return len(records), "; ".join(said)


def _served(planned: list[Projection]) -> set[str]:
    """The providers the policy reaches: each declared one, and each whose target it writes."""
    from mj_policy import providers

    names = {p.provider for p in planned}
    written = {p.target for p in planned}
    return names | {k for k, v in providers.table().items() if v.target in written}


def _leftover(root: Path, path: str, seen: Seen, served: set[str]) -> Leftover | None:
    import os

    from mj_core.write import confine

    from mj_policy.adoption import sources as importsources

    source = importsources.classify(path)
    full = root / path
    if source is None or not os.path.isfile(full) or os.path.islink(full):
        return None
    if confine.check(root, path) is not None or not set(source.providers) <= served:
        return None
    if orphans.stamp_state(full, path) is not None:
        return None  # written by `update`: an orphan's business
    pieces, missing = _pieces(root, source, seen)
    if not pieces:
        return None
    found = Leftover(source.providers[0], path, not missing)
    found.why = missing
    return found
