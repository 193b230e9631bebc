"""Whether a piece of an instruction file is already carried by the layer: by an active project
rule that names it (`imported_from`: its file and sha256) and still holds its text where it
reached, or by the bootstrap every projection begins with.

Read by `init --import` (a piece already imported is not imported twice) and by `update`'s
hand-over (an imported file is replaced only when every piece of it is carried).
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer

_IMPORTED = r"(?m)^imported_from:"  # compiled by `re` only when a project rule file exists


class Carrier:
    """An active project rule that names imported pieces."""

    __slots__ = ("body", "id", "key", "paths", "reach", "sources", "title")

    def __init__(self, data: dict[str, Any], body: str) -> None:
        from mj_policy.adoption import split as importsplit

        self.id = str(data["id"])
        self.key = f"{self.id}@{data['version']}"
        self.title = importsplit.one_line(str(data["title"]))
        self.body = importsplit.normal(body)
        self.paths = [str(p) for p in data.get("paths") or []]
        always = data.get("always_loaded") is True
        self.reach = "always" if always else "paths" if self.paths else "on-request"
        self.sources = {(str(e["file"]), str(e["sha256"])) for e in data.get("imported_from") or []}

    def holds(self, piece: dict[str, Any]) -> bool:
        from mj_policy.adoption import split as importsplit

        if (piece["file"], piece["sha256"]) not in self.sources:
            return False
        title = importsplit.one_line(str(piece["title"]))
        if title and title != self.title and title not in self.body:
            return False
        return importsplit.normal(str(piece["body"])) in self.body and self.reaches(piece)

    def reaches(self, piece: dict[str, Any]) -> bool:
        """The rule reaches at least what the piece reached."""
        if self.reach == "always" or piece["reach"] == "on-request":
            return True
        return piece["reach"] == "paths" and set(piece["paths"]) <= set(self.paths)


class Coverage:
    """The imported rules of a layer and its bootstrap, read once."""

    __slots__ = ("_bootstrap", "carriers", "layer")

    def __init__(self, layer: Layer, carriers: list[Carrier]) -> None:
        self.layer = layer
        self.carriers = carriers
        self._bootstrap: str | None = None

    def files(self) -> set[str]:
        return {file for c in self.carriers for file, _ in c.sources}

    def of(self, piece: dict[str, Any]) -> str | None:
        """Why the piece needs no rule of its own (the rule carrying it), or None."""
        carrier = self.carrier(piece)
        if carrier is not None:
            return f"already imported: {carrier.id}"
        if self.said(piece):
            return "the bootstrap `majordomus update` writes says it"
        return None

    def carrier(self, piece: dict[str, Any]) -> Carrier | None:
        return next((c for c in self.carriers if c.holds(piece)), None)

    def said(self, piece: dict[str, Any]) -> bool:
        """The bootstrap says the piece's text (its heading is the template's, or one of it)."""
        from mj_policy.adoption import split as importsplit

        return importsplit.normal(str(piece["body"])) in self.bootstrap()

    def bootstrap(self) -> str:
        if self._bootstrap is None:
            from mj_policy.adoption import split as importsplit
            from mj_policy.projection import language as template
            from mj_policy.projection import render as projections
            from mj_policy.projection import templates as projectiontemplates

            data = projections.inputs(self.layer)
            shipped, shown = projectiontemplates.template(projections.BOOTSTRAP, data.override_dir)
            values = {**data.values, "provider": "", "target": ""}
            self._bootstrap = importsplit.normal(template.render(shipped, values, shown))
        return self._bootstrap


def load(layer: Layer, *, always: bool = False) -> Coverage | None:
    """The layer's imported rules; None when no project rule names an imported piece (read
    without parsing any rule file, so a layer that imported nothing pays for no YAML) unless
    `always`."""
    found = []
    for path in _candidates(layer):
        found.append(_carrier(layer, path))
    carriers = [c for c in found if c is not None]
    return Coverage(layer, carriers) if carriers or always else None


def _candidates(layer: Layer) -> list[Path]:
    import re

    from mj_core import files

    base = layer.section("rules") / "project"
    if not base.is_dir():
        return []
    out = []
    for path in sorted(base.rglob("*.md")):
        head = files.read_bytes(path).decode("utf-8", "replace").split("\n---", 1)[0]
        if re.search(_IMPORTED, head):
            out.append(path)
    return out


def _carrier(layer: Layer, path: Path) -> Carrier | None:
    from mj_core.yaml import strict as yamlstrict

    from mj_policy.layer import loader as layer_mod

    shown = layer.relative(path)
    doc, body, _ = yamlstrict.split_front_matter(yamlstrict.read_text(path, shown), shown)
    data = layer_mod.close(doc, "rule").data
    return Carrier(data, body) if data.get("status") == "active" else None
