"""Rules as projections: a rule that declares where it applies (`paths`) or that it is always
loaded (`always_loaded: true`) reaches every declared provider in the provider's own form.

- A provider with rule files (share/providers.yaml `rules`) gets one file per rule in its rule
  directory: scoped to the rule's paths by the provider's front matter where the provider can
  scope, always loaded otherwise.
- A provider without rule files gets the rule inside its target, after the bootstrap and a
  marker line, within the target's budget; a rule that does not fit becomes a pointer to its
  file.

A rule that declares neither stays where the bootstrap already points: `.ai/repo/rules/`.
"""

from __future__ import annotations

from mj_core.yaml import strict as yamlstrict

from mj_policy.projection.text import MARKER

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    from mj_policy.layer.loader import Layer
    from mj_policy.layer.parse_cache import Cache
    from mj_policy.rules.item import Rule

__all__ = ["MARKER", "Delivered", "delivered", "front_matter", "one_directory"]


class Delivered:
    """A rule the projections carry: where it applies, whether always loaded, and its text."""

    __slots__ = ("always", "body", "paths", "rule")

    def __init__(self, rule: Rule, body: str) -> None:
        self.rule = rule
        self.paths = [str(p) for p in rule.data.get("paths") or []]
        self.always = bool(rule.data.get("always_loaded", False))
        self.body = body  # the rule file below its front matter, stripped

    @property
    def slug(self) -> str:
        return self.rule.id.replace(".", "-")

    @property
    def title(self) -> str:
        return str(self.rule.data["title"])

    def text(self, level: int) -> str:
        """The rule as a model reads it: title, statement, body, and where it comes from."""
        heading = "#" * level
        parts = [f"{heading} {self.title} (`{self.rule.key}`)", ""]
        if self.paths and not self.always:
            parts += [f"Applies to files matching {_globs(self.paths)}.", ""]
        parts += [str(self.rule.data["statement"]), ""]
        if self.body:
            parts += [_demote(self.body, level), ""]
        parts.append(f"From `{self.rule.path}`; edit the rule there, not here.")
        return "\n".join(parts) + "\n"

    def pointer(self, carried: str | None = None) -> str:
        where = f" when working on files matching {_globs(self.paths)}" if self.paths else ""
        there = f"; `{carried}` carries it in full there" if carried else ""
        return f"- {self.title} (`{self.rule.key}`): read `{self.rule.path}`{where}{there}.\n"


def one_directory(item: Delivered) -> str | None:
    """The one directory every glob of a scoped rule lies under (`src/api` for `src/api/**`),
    or None: always loaded, unscoped, or spread over several directories."""
    if item.always or not item.paths:
        return None
    found = set()
    for glob in item.paths:
        parts = glob.split("/")
        fixed = []
        for part in parts[:-1]:
            if any(c in part for c in "*?[!"):
                break
            fixed.append(part)
        found.add("/".join(fixed))
    only = found.pop() if len(found) == 1 else ""
    return only or None


def _globs(paths: list[str]) -> str:
    return ", ".join(f"`{p}`" for p in paths)


def _demote(body: str, level: int) -> str:
    """The body's headings pushed below the rule's own heading."""
    out = []
    fence = False
    for line in body.split("\n"):
        if line.startswith("```"):
            fence = not fence
        out.append("#" * level + line if not fence and line.startswith("#") else line)
    return "\n".join(out)


def delivered(layer: Layer, cache: Cache | None = None) -> list[Delivered]:
    """The effective rules that declare paths or always-loaded delivery, in resolved order.

    The rule set is resolved only when some rule file's front matter has a `paths:` or
    `always_loaded:` line: `update --check` and doctor run from git hooks, and most rule sets
    declare no delivery at all.
    """
    from mj_policy.rules import effective as rules

    if not _any_declares(layer):
        return []
    wanted = [r for r in rules.effective(layer, cache) if _declares(r)]
    return [Delivered(r, _body(layer.root / r.path, r.path)) for r in wanted]


_DELIVERY = r"(?m)^(paths|always_loaded):"


def _any_declares(layer: Layer) -> bool:
    import re

    base = layer.section("rules")
    if not base.is_dir():
        return True  # let the rule set say what is wrong (12)
    for path in base.rglob("*.md"):
        head = path.read_bytes().decode("utf-8", "replace").split("\n---", 1)[0]
        if re.search(_DELIVERY, head):
            return True
    return False


def _declares(rule: Rule) -> bool:
    return bool(rule.data.get("paths")) or rule.data.get("always_loaded") is True


def _body(path: Path, shown: str) -> str:
    _, body, _ = yamlstrict.split_front_matter(yamlstrict.read_text(path, shown), shown)
    return body.strip("\n")


def front_matter(style: str, item: Delivered, scoped: bool) -> str:
    """The front matter a provider reads on a rule file ('' for none)."""
    if style == "cursor":
        globs = " " + ",".join(item.paths) if scoped else ""
        return (
            f"---\ndescription: {_quoted(item.title)}\nglobs:{globs}\n"
            f"alwaysApply: {'false' if scoped else 'true'}\n---\n"
        )
    if style == "copilot":
        return f"---\napplyTo: {_quoted(','.join(item.paths) if scoped else '**')}\n---\n"
    if style == "windsurf":
        if scoped:
            return f"---\ntrigger: glob\nglobs: {','.join(item.paths)}\n---\n"
        return "---\ntrigger: always_on\n---\n"
    if style == "kiro":
        if not scoped:
            return "---\ninclusion: always\n---\n"
        if len(item.paths) == 1:
            return f"---\ninclusion: fileMatch\nfileMatchPattern: {_quoted(item.paths[0])}\n---\n"
        listed = "".join(f"  - {_quoted(p)}\n" for p in item.paths)
        return f"---\ninclusion: fileMatch\nfileMatchPattern:\n{listed}---\n"
    if style == "paths" and scoped:
        return "---\npaths:\n" + "".join(f"  - {_quoted(p)}\n" for p in item.paths) + "---\n"
    return ""


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
