"""What `majordomus update` writes: the declared projections and the rules they carry.

A provider with rule files (share/providers.yaml `rules`) gets one projection per delivered
rule, scoped where it can scope; any other carries the rules inside its target, and a
provider that also loads a file from subdirectories (Codex: AGENTS.md) gets a rule scoped to
one existing directory in that directory's file, its root file pointing there. A projection
that imports another target (`imports`) carries only its scoped rule files. A provider that
loads skills natively (`skills`) gets each valid active skill in its skill directory.
"""

from __future__ import annotations

from mj_policy import projections

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_policy.layer import Layer
    from mj_policy.parsecache import Cache
    from mj_policy.projections import Projection
    from mj_policy.ruleprojections import Delivered
    from mj_policy.skillmodel import Skill


def planned(layer: Layer, cache: Cache | None = None) -> list[Projection]:
    """The declared projections and the rules they carry: a provider with rule files gets one
    projection per delivered rule (scoped where it can scope), any other carries them inline.
    `cache` is the rules' parse cache, for a writer only (`mj_policy.rules.discover`)."""
    from mj_policy import providers
    from mj_policy import ruleprojections

    base = projections.declared(layer.policy.data)
    _check_imports(layer, base)
    wanted = ruleprojections.delivered(layer, cache)
    out: list[Projection] = []
    skills = _Skills(layer)
    for projection in base:
        out.append(projection)
        known = providers.table().get(projection.provider)
        if known is not None and known.skills:
            out += skills.into(projection.provider, known.skills)
        if known is None or projection.provider == "readme" or not wanted:
            continue
        spec = known.rules
        if projection.imports:  # the imported file carries the bootstrap and what is always
            if spec is None or not spec["scoped"]:  # loaded; scoped rules stay scoped here
                continue
        elif spec is None:
            projection.inline = list(wanted)
            if known.nested:
                out += _nested(layer, projection, known.nested)
            continue
        for item in wanted:
            scoped = bool(item.paths) and not item.always and bool(spec["scoped"])
            if projection.imports and not scoped:
                continue
            target = f"{spec['dir']}/{item.slug}{spec['suffix']}"
            out.append(
                projections.Projection(projection.provider, target, "file", not scoped, item)
            )
    return out


class _Skills:
    """Each valid active skill as a file of a provider's skill directory (`<id>/SKILL.md`):
    the skills read once, a directory several declared providers share planned once (for the
    first of them)."""

    __slots__ = ("done", "found", "layer")

    def __init__(self, layer: Layer) -> None:
        self.layer = layer
        self.found: list[Skill] | None = None
        self.done: set[str] = set()

    def into(self, provider: str, directory: str) -> list[Projection]:
        if directory in self.done:
            return []
        self.done.add(directory)
        out = []
        for skill in self._active():
            target = f"{directory}/{skill.id}/SKILL.md"
            projection = projections.Projection(provider, target, "file", False)
            projection.skill = skill
            out.append(projection)
        return out

    def _active(self) -> list[Skill]:
        if self.found is None:
            from mj_policy import skillmodel

            self.found = []
            if self.layer.section("skills").is_dir():
                self.found = [s for s in skillmodel.load(self.layer).skills
                              if not s.problems and s.data.get("status") == "active"]  # fmt: skip
        return self.found


def _nested(layer: Layer, root_file: Projection, name: str) -> list[Projection]:
    """A provider that also loads `name` from subdirectories (Codex: AGENTS.md) gets a rule
    scoped to one existing directory in that directory's file; its root file points there."""
    from mj_core import confine

    from mj_policy import ruleprojections

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
    for index, projection in enumerate(base):
        if projection.imports is None:
            continue
        where = layer.policy.where(("projections", index, "imports"))
        known = providers.table().get(projection.provider)
        if known is None or not known.data.get("imports"):
            raise ContractUnmet(
                f"{where}: {projection.provider} does not expand `@path` imports "
                f"({providers.TABLE}) — remove `imports`"
            )
        if projection.imports not in targets - {projection.target}:
            raise ContractUnmet(
                f"{where}: imports {projection.imports}, which is not another projection's "
                f"target ({', '.join(sorted(targets - {projection.target})) or 'none'})"
            )


def landings(layer: Layer) -> dict[str, list[dict[str, str]]]:
    """Where each delivered rule lands, by rule key: per provider, its target and how
    (scoped or always-loaded rule file, in full inside the target, or a pointer there)."""
    data = projections.inputs(layer)
    found: dict[str, list[dict[str, str]]] = {}
    for projection in planned(layer):
        if projection.rule is not None:
            how = "always" if projection.always_loaded else "scoped"
            entry = {"provider": projection.provider, "target": projection.target, "as": how}
            found.setdefault(projection.rule.rule.key, []).append(entry)
            continue
        if not projection.inline:
            continue
        text = projections.render(projection, data).generated
        for item in projection.inline:
            how = "inline" if item.text(2) in text else "pointer"
            entry = {"provider": projection.provider, "target": projection.target, "as": how}
            found.setdefault(item.rule.key, []).append(entry)
    return found
