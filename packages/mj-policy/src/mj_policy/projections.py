"""Provider projections: each `projections[]` entry of the policy rendered from its template.

A projection is a thin bootstrap: where the repository's context lives, the default profile,
the task commands, and that identity fields belong to git. Templates are shipped in
`share/providers/<provider>.tmpl`; a repository overrides one at
`.ai/repo/providers/<provider>.tmpl`. `_bootstrap.tmpl` is the shared body every provider
template places with `{{ bootstrap }}`. Rendering is a pure function of the policy, the
profiles and the templates, so the same inputs give byte-identical files.
"""

from __future__ import annotations

from mj_policy import projectiontemplates
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
        "imported",
        "imports",
        "inline",
        "mode",
        "nested_in",
        "pointed",
        "points_to",
        "provider",
        "providers",
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
        self.provider = provider  # the first of `providers` in the table's order: its template
        self.providers: tuple[str, ...] = (provider,)  # every declared provider of the target
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
        self.points_to: tuple[str, ...] = ()  # targets its client also loads: the bootstrap's
        self.imported: set[str] = set()  # rule keys carried by an `@path` line to the rule


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

    __slots__ = ("content", "forms", "generated", "inputs", "projection")

    def __init__(
        self,
        projection: Projection,
        generated: str,
        sources: tuple[str, ...] = (),
        inputs: str | None = None,  # the digest, when it is known (read from the facts)
    ) -> None:
        self.projection = projection
        self.forms: dict[str, str] = {}  # rule key → how it carries it (`projectionrules`)
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


def _values(projection: Projection, data: Inputs, sources: list[str]) -> dict[str, str]:
    """The template variables; `sources` gets the text of the shared body's template."""
    values = {**data.values, "provider": projection.provider, "target": projection.target}
    if projection.imports:  # the client expands this line into the imported file's text
        values["bootstrap"] = f"@{projection.imports}"
        return values
    if projection.points_to:  # its client reads the bootstrap in those files already
        values["bootstrap"] = pointer(projection.points_to)
        return values
    text, shown = projectiontemplates.template(BOOTSTRAP, data.override_dir)
    sources.append(text)
    values["bootstrap"] = template.render(text, values, shown).rstrip("\n")
    return values


def render(projection: Projection, data: Inputs) -> Rendered:
    from mj_policy import projectionrules

    sources: list[str] = []
    forms: dict[str, str] = {}
    if projection.rule is not None:
        generated, forms = projectionrules.rule_file(projection, projection.rule, data)
        return _with_forms(Rendered(projection, generated), forms)
    if projection.skill is not None:
        from mj_policy import skillprojection

        return Rendered(projection, skillprojection.text(projection.skill))
    if projection.nested_in is not None:
        generated = projectionrules.nested_head(projection, data.policy_file)
    else:
        text, shown = projectiontemplates.template_of(projection, data.override_dir)
        generated = template.render(text, _values(projection, data, sources), shown)
        sources.insert(0, text)
    if projection.inline:
        generated, forms = projectionrules.with_rules(projection, generated, data)
    if projection.mode == "region":
        generated = region_note(data.policy_file) + generated
    return _with_forms(Rendered(projection, generated, tuple(sources)), forms)


def _with_forms(rendered: Rendered, forms: dict[str, str]) -> Rendered:
    rendered.forms = forms
    return rendered


def pointer(targets: tuple[str, ...]) -> str:
    """The bootstrap of a target whose client also loads other targets that carry it."""
    named = [f"`{t}`" for t in targets]
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    said = (
        f"This client also loads {listed} into every conversation; the bootstrap of this "
        "repository (where its context lives, how a task runs) is there and is not repeated "
        "here."
    )
    return _fill(said, 95)


def _fill(text: str, width: int) -> str:
    """`text`'s words, lines filled up to `width` (a longer word alone on its line): what
    `textwrap.fill` gives without breaking words or hyphens, without importing it."""
    if "  " in text or any(c in text for c in "\t\n\r\v\f"):  # a path with odd spacing
        import textwrap

        return textwrap.fill(text, width=width, break_on_hyphens=False, break_long_words=False)
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines)


def region_note(policy_file: str) -> str:
    return (
        f"<!-- generated by `majordomus update` from {policy_file}; this region is rewritten "
        "on every update — edit the policy, not the region -->\n"
    )


def file_text(rendered: Rendered, policy_file: str) -> str:
    """The whole file-mode target: the generated text with its stamp line in place."""
    line = stamps.file_stamp(policy_file, rendered.inputs, rendered.content)
    return stamps.insert_stamp(line, rendered.generated)
