"""What the judges look at: the repository root and facts read once per run, on demand.

Each fact is computed the first time a check asks for it and cached for the rest of the run,
so the order of checks never changes how often git is asked or a file is parsed.
"""

from __future__ import annotations

from functools import cached_property

from mj_core import yamlstrict
from mj_core.errors import MjError
from mj_policy import layer

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from mj_core.yamlstrict import Document
    from mj_policy.layer import Layer

    Parsed = tuple[Document | None, str | None]  # (document, or the one-line reason it is not)


class Facts:
    prove = False  # `doctor --prove`: the wiring judge also runs the declared hooks

    def __init__(self, root: Path, _parsed: dict[str, Parsed] | None = None) -> None:
        self.root = root
        self._parsed: dict[str, Parsed] = {} if _parsed is None else _parsed

    def path(self, relative: str) -> Path:
        return self.root / relative

    def yaml(self, relative: str) -> Parsed:
        """A YAML file of the layer, parsed strictly once; errors come back as text."""
        if relative not in self._parsed:
            path = self.path(relative)
            self._parsed[relative] = _attempt(lambda: yamlstrict.load_file(path, relative))
        return self._parsed[relative]

    def front_matter(self, relative: str) -> Parsed:
        """The front matter of a Markdown file of the layer, parsed strictly once."""
        key = f"{relative}#front-matter"
        if key not in self._parsed:
            self._parsed[key] = _attempt(lambda: _front_matter(self.path(relative), relative))
        return self._parsed[key]

    @cached_property
    def manifest(self) -> Document | None:
        """The manifest when it parses as a mapping; its defects are the layer check's to report."""
        doc, _ = self.yaml(layer.MANIFEST)
        return doc if doc is not None and isinstance(doc.data, dict) else None

    def section(self, name: str, default: str) -> str:
        """`.ai/<section>` as the manifest names it, or the skeleton's path when it cannot."""
        if self.manifest is not None:
            try:
                return f".ai/{layer.section_value(self.manifest, name)}"
            except MjError:
                pass
        return f".ai/{default}"

    @cached_property
    def layer(self) -> Layer | None:
        """The loaded layer, or None when the manifest or policy is malformed (reported apart)."""
        try:
            return layer.load(self.root)
        except MjError:
            return None


def _front_matter(path: Path, shown: str) -> Document:
    doc, _, _ = yamlstrict.split_front_matter(yamlstrict.read_text(path, shown), shown)
    return doc


def _attempt(parse: Callable[[], Document]) -> Parsed:
    try:
        return parse(), None
    except MjError as exc:
        return None, exc.message
