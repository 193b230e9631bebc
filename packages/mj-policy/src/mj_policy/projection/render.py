"""Provider projections: each `projections[]` entry of the policy rendered from its template.

A projection is a thin bootstrap: where the repository's context lives, the default profile,
the task commands, and that identity fields belong to git. Templates are shipped in
`share/providers/<provider>.tmpl`; a repository overrides one at
`.ai/repo/providers/<provider>.tmpl`. `_bootstrap.tmpl` is the shared body every provider
template places with `{{ bootstrap }}`. Rendering is a pure function of the policy, the
profiles and the templates, so the same inputs give byte-identical files.
"""

from __future__ import annotations

from mj_policy import providers
from mj_policy.layer.loader import section_value
from mj_policy.projection import language as template
from mj_policy.projection import stamps
from mj_policy.projection import templates as projectiontemplates
from mj_policy.projection.item import Inputs
from mj_policy.projection.item import Projection
from mj_policy.projection.item import Rendered

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from mj_policy.layer.loader import Layer

BOOTSTRAP = "_bootstrap"
__all__ = ["BOOTSTRAP", "Inputs", "Projection", "Rendered", "declared", "file_text", "inputs",
           "pointer", "region_note", "render"]  # fmt: skip


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
    from mj_policy.projection import rules as projectionrules

    sources: list[str] = []
    forms: dict[str, str] = {}
    if projection.rule is not None:
        generated, forms = projectionrules.rule_file(projection, projection.rule, data)
        return _with_forms(Rendered(projection, generated), forms)
    if projection.skill is not None:
        from mj_policy.skills import projection as skillprojection

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
