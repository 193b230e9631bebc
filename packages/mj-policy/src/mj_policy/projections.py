"""Provider projections: each `projections[]` entry of the policy rendered from its template.

A projection is a thin bootstrap: where the repository's context lives, the default profile,
the task commands, and that identity fields belong to git. Templates are shipped in
`share/providers/<provider>.tmpl`; a repository overrides one at
`.ai/repo/providers/<provider>.tmpl`. `_bootstrap.tmpl` is the shared body every provider
template places with `{{ bootstrap }}`. Rendering is a pure function of the policy, the
profiles and the templates, so the same inputs give byte-identical files.
"""

from __future__ import annotations

from functools import cache

from mj_core import share
from mj_core.errors import MissingArtifact
from mj_core.yamlstrict import decode

from mj_policy import providers
from mj_policy import stamps
from mj_policy import template
from mj_policy.layer import section_value

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path
    from typing import Any

    from mj_policy.layer import Layer
    from mj_policy.ruleprojections import Delivered
    from mj_policy.skillmodel import Skill

BOOTSTRAP = "_bootstrap"


class Projection:
    """One `projections[]` entry of the policy."""

    __slots__ = (
        "always_loaded",
        "imports",
        "inline",
        "mode",
        "nested_in",
        "pointed",
        "provider",
        "rule",
        "rule_key",
        "skill",
        "target",
    )

    def __init__(
        self,
        provider: str,
        target: str,
        mode: str,
        always_loaded: bool,
        rule: Delivered | None = None,
    ) -> None:
        self.provider = provider
        self.target = target
        self.mode = mode  # file | region
        self.always_loaded = always_loaded  # the provider loads it into every conversation
        self.rule = rule  # a rule file of the provider's own: the rule it carries
        self.rule_key = rule.rule.key if rule is not None else None  # its id@version
        self.inline: list[Delivered] = []  # a bootstrap target: the rules it carries below it
        self.imports: str | None = None  # the target whose text an `@path` line brings in
        self.nested_in: str | None = None  # a nested file: the directory whose rules it carries
        self.pointed: dict[str, str] = {}  # rule key → the nested file that carries it in full
        self.skill: Skill | None = None  # a skill file of the provider's own: the skill


class Inputs:
    """Everything a projection is rendered from, read once."""

    __slots__ = ("_digest", "_hashed", "budget_lines", "override_dir", "policy_file", "values")

    def __init__(
        self,
        policy_file: str,
        hashed: list[Path],
        values: dict[str, str],
        override_dir: Path,
        budget_lines: int = 0,
    ) -> None:
        self.policy_file = policy_file  # repository-relative, as the stamp names it
        self._hashed = hashed  # the policy, then every profile in byte order of its name
        self._digest: str | None = None
        self.values = values  # template variables shared by every provider
        self.override_dir = override_dir  # .ai/repo/providers
        self.budget_lines = budget_lines  # context.always_loaded_budget_lines

    @property
    def policy_sha256(self) -> str:
        """The policy and every profile, concatenated (the ledger line of a writing run; read
        and hashed only when asked)."""
        if self._digest is None:
            self._digest = stamps.policy_digest(path.read_bytes() for path in self._hashed)
        return self._digest


class Rendered:
    """One projection rendered: its text, that text's content hash, and the hash of what the
    text was made from (the stamp's `policy`: the templates and the text they gave)."""

    __slots__ = ("content", "generated", "inputs", "projection")

    def __init__(
        self,
        projection: Projection,
        generated: str,
        sources: tuple[str, ...] = (),
        inputs: str | None = None,  # the digest, when it is known (read from the facts)
    ) -> None:
        self.projection = projection
        self.generated = generated  # file mode: without its stamp line; region: the region body
        self.content = stamps.content_hash(generated)
        self.inputs = inputs or stamps.inputs_digest((*sources, generated))


def declared(policy: Mapping[str, Any]) -> list[Projection]:
    out = []
    for item in policy.get("projections") or []:
        found = Projection(
            provider=str(item["provider"]),
            target=str(item["target"]),
            mode=str(item.get("mode") or "file"),
            always_loaded=providers.loaded_always(item),
        )
        found.imports = str(item["imports"]) if item.get("imports") else None
        out.append(found)
    return out


def inputs(layer: Layer) -> Inputs:
    policy_file = ".ai/" + section_value(layer.manifest, "policy")
    profiles_dir = layer.section("profiles")
    names = sorted(p.name for p in profiles_dir.glob("*.yaml") if p.is_file())  # bytewise,
    hashed = [layer.root / policy_file, *(profiles_dir / name for name in names)]  # as `cat`
    repo_path = str(layer.manifest.data.get("repo", {}).get("path") or "repo")
    values = {
        "policy_file": policy_file,
        "readme": "README.md",
        "ai_readme": ".ai/README.md",
        "rules_dir": layer.relative(layer.section("rules")) + "/",
        "profiles_dir": layer.relative(profiles_dir) + "/",
        "default_profile": str(layer.policy.data["profiles"]["default"]),
    }
    budget = int(layer.policy.data["context"]["always_loaded_budget_lines"])
    return Inputs(
        policy_file,
        hashed,
        values,
        layer.ai / repo_path / "providers",
        budget,
    )


def _template(name: str, override_dir: Path) -> tuple[str, str]:
    """(text, shown name) of a template: the repository override first, then the shipped one."""
    override = override_dir / f"{name}.tmpl"
    if override.is_file():
        return decode(override.read_bytes(), str(override)), str(override)
    return _shipped(name)


@cache
def _shipped(name: str) -> tuple[str, str]:
    """A shipped template, read once a process (every bootstrap renders the shared body)."""
    shipped = share.path("providers", f"{name}.tmpl")
    if not shipped.is_file():
        raise MissingArtifact(f"share/providers/{name}.tmpl: no template for provider '{name}'")
    return shipped.read_text(encoding="utf-8"), f"share/providers/{name}.tmpl"


def _values(projection: Projection, data: Inputs, sources: list[str]) -> dict[str, str]:
    """The template variables; `sources` gets the text of the shared body's template."""
    values = {**data.values, "provider": projection.provider, "target": projection.target}
    if projection.imports:  # the client expands this line into the imported file's text
        values["bootstrap"] = f"@{projection.imports}"
        return values
    text, shown = _template(BOOTSTRAP, data.override_dir)
    sources.append(text)
    values["bootstrap"] = template.render(text, values, shown).rstrip("\n")
    return values


def render(projection: Projection, data: Inputs) -> Rendered:
    if projection.rule is not None:
        return _render_rule(projection, projection.rule, data)
    if projection.skill is not None:
        from mj_policy import skillprojection

        return Rendered(projection, skillprojection.text(projection.skill))
    sources: list[str] = []
    if projection.nested_in is not None:
        generated = _nested_head(projection, data)
    else:
        text, shown = _template(projection.provider, data.override_dir)
        generated = template.render(text, _values(projection, data, sources), shown)
        sources.insert(0, text)
    if projection.inline:
        generated = _with_rules(projection, generated, data)
    if projection.mode == "region":
        generated = region_note(data.policy_file) + generated
    return Rendered(projection, generated, tuple(sources))


def region_note(policy_file: str) -> str:
    return (
        f"<!-- generated by `majordomus update` from {policy_file}; this region is rewritten "
        "on every update — edit the policy, not the region -->\n"
    )


def file_text(rendered: Rendered, policy_file: str) -> str:
    """The whole file-mode target: the generated text with its stamp line in place."""
    line = stamps.file_stamp(policy_file, rendered.inputs, rendered.content)
    return stamps.insert_stamp(line, rendered.generated)


def _render_rule(projection: Projection, item: Delivered, data: Inputs) -> Rendered:
    from mj_policy import ruleprojections

    spec = providers.get(projection.provider).rules or {}
    head = ruleprojections.front_matter(
        str(spec.get("front_matter")), item, not projection.always_loaded
    )
    generated = head + item.text(1)
    if not _fits(projection, generated, data):
        generated = head + item.pointer()
    return Rendered(projection, generated)


def _with_rules(projection: Projection, generated: str, data: Inputs) -> str:
    """The bootstrap, the marker, then each rule in full where the budget allows, else its
    pointer (the budget of an always-loaded target; any other carries every rule in full)."""
    from mj_policy import ruleprojections

    text = generated.rstrip("\n") + "\n\n" + ruleprojections.MARKER + "\n"
    for item in projection.inline:
        carried = projection.pointed.get(item.rule.key)
        if carried is not None:
            text += "\n" + item.pointer(carried)
            continue
        full = text + "\n" + item.text(2)
        text = full if _fits(projection, full, data) else text + "\n" + item.pointer()
    return text


def _nested_head(projection: Projection, data: Inputs) -> str:
    return (
        f"# AGENTS.md for `{projection.nested_in}/`\n\n"
        f"The rules for files under `{projection.nested_in}/`, generated from "
        f"`{data.policy_file}` beside the repository's root `AGENTS.md`.\n"
    )


STAMP_ALLOWANCE = 200  # bytes of the stamp line (or region markers) a file adds to its text


def _fits(projection: Projection, generated: str, data: Inputs) -> bool:
    from mj_policy import budgets

    extra = 2 if projection.mode == "region" else 1
    lines = generated.count("\n") + extra
    size = len(generated.encode("utf-8")) + STAMP_ALLOWANCE
    return not budgets.overruns(projection, lines, size, data.budget_lines)
