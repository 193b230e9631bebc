"""Rule files no rule projects any more, and skill files no skill does: a file in a declared
provider's rule or skill directory that carries the stamp of `majordomus update` but is not one
of the targets it would write now (the rule was removed, renamed, or stopped declaring paths;
the skill was removed or is no longer active). Left in place it would keep reaching the model;
`update` removes it when it is as written, `update --check` and doctor fail it.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.write import confine
from mj_core.yaml.strict import decode

from mj_policy import providers
from mj_policy.projection import stamps

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    from mj_policy.projection.render import Projection


class Orphan:
    """A stamped rule file nothing plans: its provider, path, and whether it is as written."""

    __slots__ = ("intact", "provider", "target")
    state = "orphan"  # what `update` reports it as

    def __init__(self, provider: str, target: str, intact: bool) -> None:
        self.provider = provider
        self.target = target
        self.intact = intact  # its content matches its stamp (not edited by hand)

    def check_message(self) -> str:
        return (
            "no rule projects it any more, yet its provider still loads it — "
            "`majordomus update` removes it"
        )

    def refusal_message(self) -> str:
        return (
            "no rule projects it any more, and it was edited by hand since `majordomus update` "
            "wrote it"
        )


def find(root: Path, planned: list[Projection]) -> list[Orphan]:
    wanted = {p.target for p in planned}
    found: list[Orphan] = []
    seen: set[str] = set()
    for projection in planned:
        for name in projection.providers:
            known = providers.table().get(name)
            skills = known.skills if known is not None else None
            if skills is not None and skills not in seen:
                seen.add(skills)
                found += _in_dir(root, name, skills, "/SKILL.md", wanted)
            spec = known.rules if known is not None else None
            if spec is None or spec["dir"] in seen:
                continue
            seen.add(str(spec["dir"]))
            found += _in_dir(root, name, str(spec["dir"]), str(spec["suffix"]), wanted)
    return found + _nested(root, planned, wanted)


def _nested(root: Path, planned: list[Projection], wanted: set[str]) -> list[Orphan]:
    """A nested file (Codex's `<dir>/AGENTS.md`) the rules would place in a directory, stamped,
    that nothing plans now (its target became shared with a provider that loads no nested
    file, or its rule went)."""
    from mj_policy.rules import projections as ruleprojections

    out = []
    for projection in planned:
        names = {
            n.nested_at_start for n in (providers.table().get(p) for p in projection.providers) if n
        } - {None}
        folders = {ruleprojections.one_directory(item) for item in projection.inline} - {None}
        for folder in sorted(str(f) for f in folders):
            for name in sorted(str(n) for n in names):
                target = f"{folder}/{name}"
                if target in wanted or confine.check(root, target) is not None:
                    continue
                intact = stamp_state(root / target, target) if (root / target).is_file() else None
                if intact is not None:
                    out.append(Orphan(projection.provider, target, intact))
    return out


def _in_dir(root: Path, provider: str, folder: str, suffix: str, wanted: set[str]) -> list[Orphan]:
    base = root / folder
    if not base.is_dir() or base.is_symlink():
        return []
    out = []
    for path in sorted(base.glob(f"*{suffix}")):  # a skill: `<id>/SKILL.md`
        target = f"{folder}/{path.relative_to(base).as_posix()}"
        if target in wanted or confine.check(root, target) is not None or not path.is_file():
            continue  # confine: a file a write (here, the removal) may touch
        split = stamp_state(path, target)
        if split is not None:
            out.append(Orphan(provider, target, split))
    return out


def stamp_state(path: Path, target: str) -> bool | None:
    """None for a file `update` did not write; else whether it matches its stamp."""
    try:
        text = decode(path.read_bytes(), target)
    except MjError:
        return None
    split = stamps.read_file_stamp(text)
    if split.stamp is None:
        return None
    return split.stamp.content == stamps.content_hash(split.covered)
