"""What `majordomus update` writes: the declared projections and the rules they carry.

A provider with rule files (share/providers.yaml `rules`) gets one projection per delivered
rule, scoped where it can scope; any other carries the rules inside its target, and a
provider that also loads a file from subdirectories (Codex: AGENTS.md) gets a rule scoped to
one existing directory in that directory's file, its root file pointing there. A projection
that imports another target (`imports`) carries only its scoped rule files. A provider that
loads skills natively (`skills`) gets each valid active skill in its skill directory.
"""

from __future__ import annotations

from mj_policy.projection import render as projections

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    from mj_policy.layer.loader import Layer
    from mj_policy.layer.parse_cache import Cache
    from mj_policy.projection.render import Projection
    from mj_policy.rules.projections import Delivered
    from mj_policy.skills.model import Skill


def planned(layer: Layer, cache: Cache | None = None) -> list[Projection]:
    """The declared projections and the rules they carry: a provider with rule files gets one
    projection per delivered rule (scoped where it can scope), any other carries them inline;
    a target several providers share is one projection (`projection.share`); and a client that
    also loads another provider's file is not told twice what that file tells it
    (`projection.dedup`). `cache` is the rules' parse cache, for a writer only
    (`mj_policy.rules.effective.discover`)."""
    from mj_policy.projection import dedup as projectiondedup
    from mj_policy.projection import share as projectionshare
    from mj_policy.rules import projections as ruleprojections

    base = projectionshare.merged(layer, projections.declared(layer.policy.data))
    _check_imports(layer, base)
    wanted = ruleprojections.delivered(layer, cache)
    out: list[Projection] = []
    skills = _Skills(layer, base)
    for projection in base:
        out.append(projection)
        out += skills.into(projection)
        if "readme" not in projection.providers and wanted:
            out += _rules(layer, projection, wanted)
    return projectiondedup.trim(layer, out)


def _rules(layer: Layer, projection: Projection, wanted: list[Delivered]) -> list[Projection]:
    """The rules one declared target needs: inline for a provider without rule files (in a
    nested file where every such provider of the target loads one), rule files of each
    provider that has them."""
    from mj_policy import providers

    table = providers.table()
    known = [table[name] for name in projection.providers if name in table]
    out: list[Projection] = []
    inline = [p for p in known if p.rules is None]
    if inline and not projection.imports:  # an importing file carries only scoped rule files
        projection.inline = list(wanted)
        nested = {p.nested_at_start for p in inline}
        if len(nested) == 1 and None not in nested:
            out += _nested(layer, projection, str(nested.pop()))
    for provider in known:
        spec = provider.rules
        if spec is None or (projection.imports and not spec["scoped"]):
            continue
        for item in wanted:
            scoped = bool(item.paths) and not item.always and bool(spec["scoped"])
            if projection.imports and not scoped:
                continue
            target = f"{spec['dir']}/{item.slug}{spec['suffix']}"
            out.append(projections.Projection(provider.key, target, "file", not scoped, item))
    return out


class _Skills:
    """Each valid active skill as a file of a provider's skill directory (`<id>/SKILL.md`):
    the skills read once, a directory several declared providers share planned once, for the
    first of them in the table's order (whichever order the policy lists them)."""

    __slots__ = ("done", "found", "layer", "owner")

    def __init__(self, layer: Layer, base: list[Projection]) -> None:
        from mj_policy import providers

        self.layer = layer
        self.found: list[Skill] | None = None
        self.done: set[str] = set()
        declared = {name for p in base for name in p.providers}
        self.owner: dict[str, str] = {}
        for name, provider in providers.table().items():  # the table's order
            if name in declared and provider.skills:
                self.owner.setdefault(provider.skills, name)

    def into(self, projection: Projection) -> list[Projection]:
        from mj_policy import providers

        out = []
        for name in projection.providers:
            known = providers.table().get(name)
            directory = known.skills if known is not None else None
            if directory is None or directory in self.done:
                continue
            self.done.add(directory)
            for skill in self._active():
                target = f"{directory}/{skill.id}/SKILL.md"
                found = projections.Projection(self.owner[directory], target, "file", False)
                found.skill = skill
                out.append(found)
        return out

    def _active(self) -> list[Skill]:
        if self.found is None:
            self.found = []
            if _has_folders(self.layer.section("skills")):  # a skill is a folder
                from mj_policy.skills import model as skillmodel

                self.found = [s for s in skillmodel.load(self.layer).skills
                              if not s.problems and s.data.get("status") == "active"]  # fmt: skip
        return self.found


def _has_folders(directory: Path) -> bool:
    """`directory` holds a folder (the skills' model is not loaded for an empty section)."""
    import os

    try:
        with os.scandir(directory) as entries:
            return any(entry.is_dir() for entry in entries)
    except OSError:
        return False


def _nested(layer: Layer, root_file: Projection, name: str) -> list[Projection]:
    """A provider that also loads `name` from subdirectories (Codex: AGENTS.md) gets a rule
    scoped to one existing directory in that directory's file; its root file points there."""
    from mj_core.write import confine

    from mj_policy.rules import projections as ruleprojections

    groups: dict[str, list[Delivered]] = {}
    for item in root_file.inline:
        folder = ruleprojections.one_directory(item)
        target = f"{folder}/{name}"
        if folder and (layer.root / folder).is_dir() and confine.check(layer.root, target) is None:
            groups.setdefault(folder, []).append(item)
    out = []
    for folder, items in groups.items():
        nested = projections.Projection(root_file.provider, f"{folder}/{name}", "file", True)
        nested.inline, nested.nested_in = items, folder
        out.append(nested)
        root_file.pointed.update({item.rule.key: nested.target for item in items})
    return out


def _check_imports(layer: Layer, base: list[Projection]) -> None:
    """`imports` names another declared target, on a provider that expands `@path` (10)."""
    from mj_core.errors import ContractUnmet

    from mj_policy import providers

    targets = {p.target for p in base}
    entries = layer.policy.data.get("projections") or []
    for projection in base:
        if projection.imports is None:
            continue
        index = next(i for i, e in enumerate(entries) if str(e["target"]) == projection.target)
        where = layer.policy.where(("projections", index, "imports"))
        for name in projection.providers:
            known = providers.table().get(name)
            if known is None or not known.data.get("imports"):
                raise ContractUnmet(
                    f"{where}: {name} does not expand `@path` imports "
                    f"({providers.TABLE}) — remove `imports`"
                )
        if projection.imports not in targets - {projection.target}:
            raise ContractUnmet(
                f"{where}: imports {projection.imports}, which is not another projection's "
                f"target ({', '.join(sorted(targets - {projection.target})) or 'none'})"
            )
