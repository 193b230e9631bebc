"""Prompt assets `.ai/repo/prompts/<name>.md`: front matter, the closed token set, substitution.

There is no template language: inline tokens are replaced anywhere in a line, block tokens only
when they stand alone on a line; any other `{{…}}`, or a block token used inline, is refused
(10) naming the line. Nothing is evaluated, included, looped or run.
"""

from __future__ import annotations

import re

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from mj_policy.layer.loader import Layer

INLINE = (
    *("TASK", "TASK_ID", "PROFILE", "SCOPE", "OWNER"),
    *("BRANCH", "HEAD", "WORKING_TREE", "REPOSITORY", "NOW"),
)
BLOCK = ("OPEN_QUESTIONS", "DECISIONS", "CHECKPOINT", "HANDOVER", "CONTEXT")
KEYS = ("name", "description", "profile")
# Patterns as text: `re` compiles (and caches) one on first use; most runs read no prompt.
_TOKEN = r"\{\{(.*?)\}\}"
_NAME = r"[a-z0-9][a-z0-9._-]*"


class Asset:
    """One prompt asset: its front matter, where it lives, and its body."""

    __slots__ = ("body", "body_line", "description", "name", "path", "profile")

    def __init__(  # noqa: PLR0917 — the positional order callers already use
        self, name: str, description: str, profile: str | None, path: str, body: str, body_line: int
    ) -> None:
        self.name = name
        self.description = description
        self.profile = profile
        self.path = path  # repository-relative
        self.body = body
        self.body_line = body_line  # file line of the body's first line

    def blocks(self) -> list[str]:
        return [m.group(1) for m in re.finditer(_TOKEN, self.body) if m.group(1) in BLOCK]

    def record(self) -> dict[str, object]:
        return {
            "kind": "prompt",
            "name": self.name,
            "description": self.description,
            "profile": self.profile,
            "path": self.path,
        }


def names(directory: Path) -> list[str]:
    if not directory.is_dir():
        return []
    return sorted(p.stem for p in directory.glob("*.md") if p.is_file())


def load(directory: Path, name: str, shown_dir: str) -> Asset:
    """One asset, checked in full; unknown → 12, anything malformed → 10 naming file:line."""
    path = directory / f"{name}.md"
    shown = f"{shown_dir}/{name}.md"
    if not named(name) or not path.is_file():
        raise unknown(shown, names(directory))
    return from_text(name, yamlstrict.read_text(path, shown), shown)


def named(name: str) -> bool:
    """Whether `name` may name an asset at all."""
    return re.fullmatch(_NAME, name) is not None


def unknown(shown: str, known: list[str]) -> MissingArtifact:
    """The error for an asset that is not there (12), naming the ones that are."""
    return MissingArtifact(
        f"{shown}: no such prompt asset (the assets here: {', '.join(known) or 'none'})"
    )


def from_text(name: str, text: str, shown: str) -> Asset:
    """One asset from its text, checked in full; anything malformed → 10 naming file:line."""
    doc, body, first = yamlstrict.split_front_matter(text, shown)
    data = doc.data if isinstance(doc.data, dict) else {}
    if not isinstance(doc.data, dict):
        raise ContractUnmet(f"{shown}:2: front matter is not a mapping of name, description")
    _front(doc, data, name, shown)
    asset = Asset(name, data["description"], data.get("profile"), shown, body, first)
    check_tokens(asset)
    return asset


def _front(doc: yamlstrict.Document, data: dict[str, object], name: str, shown: str) -> None:
    for key in data:
        if key not in KEYS:
            raise ContractUnmet(
                f"{doc.where((key,))}: unknown key '{key}' — a prompt carries "
                "name, description and optionally profile"
            )
    if data.get("name") != name:
        raise ContractUnmet(f"{doc.where(('name',))}: name must equal the file stem '{name}'")
    description = data.get("description")
    if not isinstance(description, str) or not description.strip():
        raise ContractUnmet(f"{doc.where(('description',))}: description: one non-empty line")
    if "profile" in data and not isinstance(data["profile"], str):
        raise ContractUnmet(f"{doc.where(('profile',))}: profile must name a profile")


def check_tokens(asset: Asset) -> None:
    for offset, line in enumerate(asset.body.split("\n")):
        where = f"{asset.path}:{asset.body_line + offset}"
        for match in re.finditer(_TOKEN, line):
            token = match.group(1)
            if token in BLOCK and line.strip() != match.group(0):
                raise ContractUnmet(
                    f"{where}: block token {{{{{token}}}}} must stand alone on its line"
                )
            if token not in BLOCK and token not in INLINE:
                raise ContractUnmet(
                    f"{where}: unknown token {match.group(0)} — the closed set: "
                    f"{', '.join(INLINE + BLOCK)}"
                )
        rest = re.sub(_TOKEN, "", line)
        if "{{" in rest or "}}" in rest:
            raise ContractUnmet(f"{where}: unbalanced '{{{{' or '}}}}' — tokens are {{{{NAME}}}}")


def render(asset: Asset, inline: Mapping[str, str], blocks: Mapping[str, list[str]]) -> str:
    """The body with every token replaced; a block token becomes its lines (or a note)."""
    out: list[str] = []
    for line in asset.body.split("\n"):
        token = line.strip()[2:-2] if re.fullmatch(_TOKEN, line.strip()) else None
        if token in BLOCK:
            out.extend(blocks.get(token) or ["(none)"])
            continue
        out.append(re.sub(_TOKEN, lambda m: inline.get(m.group(1), "-"), line))
    text = "\n".join(out).strip("\n")
    return text + "\n"


def fact(lay: Layer) -> dict[str, object]:
    """The `prompts` fact: every asset's text as read (or why it could not be), for the judges
    that validate them (doctor's prompt-integrity, watch)."""
    from mj_core.errors import MjError

    directory = lay.section("prompts")
    shown_dir = lay.relative(directory)
    assets: list[dict[str, str]] = []
    for name in names(directory):
        shown = f"{shown_dir}/{name}.md"
        try:
            assets.append(
                {"name": name, "text": yamlstrict.read_text(directory / f"{name}.md", shown)}
            )
        except MjError as exc:
            assets.append({"name": name, "problem": exc.message})
    return {"kind": "fact", "fact": "prompts", "directory": shown_dir, "assets": assets}
