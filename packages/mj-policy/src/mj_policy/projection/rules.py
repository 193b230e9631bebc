"""The rules a projection carries, and in which form (`Rendered.forms`, by rule key):

- `full`: its text, within the budget of an always-loaded file;
- `pointer`: one line naming its rule file, where the budget does not allow the text;
- `nested`: one line naming the nested file that carries it in full (Codex's AGENTS.md);
- `import`: its heading and an `@path` line to its rule file, which the target's own client
  expands and a client that also loads the target but does not expand imports sees as a
  pointer — a scoped rule stays out of every conversation of a client that can scope it
  itself (GitHub Copilot reads GEMINI.md), while the target's own client gets its text.

A rule file of a provider's own (`rule_file`) carries one rule in full or as its pointer.
"""

from __future__ import annotations

from mj_policy import providers

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_policy.projection.item import Inputs
    from mj_policy.projection.item import Projection
    from mj_policy.rules.projections import Delivered

STAMP_ALLOWANCE = 200  # bytes of the stamp line (or region markers) a file adds to its text


def rule_file(projection: Projection, item: Delivered, data: Inputs) -> tuple[str, dict[str, str]]:
    """A provider's own rule file: its text and the form it carries the rule in."""
    from mj_policy.rules import projections as ruleprojections

    spec = providers.get(projection.provider).rules or {}
    head = ruleprojections.front_matter(
        str(spec.get("front_matter")), item, not projection.always_loaded
    )
    generated = head + item.text(1)
    form = "full"
    if not fits(projection, generated, data.budget_lines):
        generated, form = head + item.pointer(), "pointer"
    return generated, {item.rule.key: form}


def with_rules(projection: Projection, generated: str, data: Inputs) -> tuple[str, dict[str, str]]:
    """The bootstrap, the marker, then each rule in full where the budget allows, else its
    pointer (the budget of an always-loaded target; any other carries every rule in full);
    and the form each rule took."""
    from mj_policy.rules import projections as ruleprojections

    text = generated.rstrip("\n") + "\n\n" + ruleprojections.MARKER + "\n"
    forms: dict[str, str] = {}
    for item in projection.inline:
        key = item.rule.key
        carried = projection.pointed.get(key)
        if carried is not None:
            text, forms[key] = text + "\n" + item.pointer(carried), "nested"
            continue
        if fits(projection, text + "\n" + item.text(2), data.budget_lines):
            imported = key in projection.imported
            more = imported_text(item) if imported else item.text(2)
            text, forms[key] = text + "\n" + more, "import" if imported else "full"
        else:
            text, forms[key] = text + "\n" + item.pointer(), "pointer"
    return text, forms


def imported_text(item: Delivered) -> str:
    """A rule brought in by its client from the rule file (`@path`), under its heading."""
    where = ", ".join(f"`{p}`" for p in item.paths)
    return (
        f"## {item.title} (`{item.rule.key}`)\n\n"
        f"Applies to files matching {where}; the line below brings in its rule file.\n\n"
        f"@{item.rule.path}\n"
    )


def nested_head(projection: Projection, policy_file: str) -> str:
    return (
        f"# AGENTS.md for `{projection.nested_in}/`\n\n"
        f"The rules for files under `{projection.nested_in}/`, generated from "
        f"`{policy_file}` beside the repository's root `AGENTS.md`.\n"
    )


def fits(projection: Projection, generated: str, budget_lines: int) -> bool:
    from mj_policy.projection import budgets

    extra = 2 if projection.mode == "region" else 1
    lines = generated.count("\n") + extra
    size = len(generated.encode("utf-8")) + STAMP_ALLOWANCE
    return not budgets.overruns(
        projection.providers, projection.always_loaded, lines, size, budget_lines
    )
