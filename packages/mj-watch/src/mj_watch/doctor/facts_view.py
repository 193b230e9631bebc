"""What the judges look at: facts, as `mj-watch facts --for doctor` gathered them.

`Facts` answers a check's questions from fact records only (a saved facts file, a test's
hand-made records, or the upstream stage in-process): the layer files as text, the git and
state answers, the hooks. It never opens the repository. Each file is parsed the first time a
check asks for it, so the order of checks never changes how often a text is parsed.
(`watch.facts.LiveFacts` answers the same questions from the disk, for watch.)
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.yaml import strict as yamlstrict
from mj_policy.layer import files as layerfiles
from mj_policy.layer import loader as layer

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterable
    from typing import Any

    from mj_core.yaml.strict import Document
    from mj_policy.layer.loader import Layer

    Parsed = tuple[Document | None, str | None]  # (document, or the one-line reason it is not)
    Record = dict[str, Any]

ABSENT: Record = {"type": "absent"}


class Facts:
    """A judge's view of one checkout, built from `fact` records alone."""

    prove = False  # `doctor --prove`: the hooks were run by the facts stage

    def __init__(self, records: Iterable[Record] = ()) -> None:
        self.facts: dict[str, Record] = {}
        for record in records:
            if record.get("kind") == "fact" and isinstance(record.get("fact"), str):
                self.facts[record["fact"]] = record
        head = self.facts.get("doctor") or {}
        self.root = Path(str(head.get("root") or "."))
        self.prove = bool(head.get("prove"))
        self._parsed: dict[str, Parsed] = {}

    def get(self, name: str) -> Record:
        """The fact `name`; facts without it cannot be judged (12)."""
        found = self.facts.get(name)
        if found is None:
            raise MissingArtifact(
                f"doctor: the facts carry no {name} fact — `mj-watch facts --for doctor`"
            )
        return found

    def entry(self, relative: str) -> Record:
        """A layer path as the facts stage saw it; one it did not list is absent."""
        found = (self.facts.get("files") or {}).get("entries") or {}
        entry: Record = found.get(relative) or ABSENT
        return entry

    def kind(self, relative: str) -> str:
        return str(self.entry(relative).get("type") or "absent")

    def text(self, relative: str) -> tuple[str | None, str | None]:
        """(the file's text, or the one-line reason it cannot be read)."""
        entry = self.entry(relative)
        if entry.get("type") != "file":
            return None, str(entry.get("problem") or f"{relative}: no such file")
        if entry.get("problem"):
            return None, str(entry["problem"])
        return str(entry.get("text") or ""), None

    def files_below(self, base: str) -> list[str]:
        """Every non-directory path below `base`, relative to it, sorted."""
        prefix = base.rstrip("/") + "/"
        found = (self.facts.get("files") or {}).get("entries") or {}
        return sorted(
            key[len(prefix) :]
            for key, entry in found.items()
            if key.startswith(prefix) and entry.get("type") not in ("directory", "absent")
        )

    def yaml(self, relative: str) -> Parsed:
        """A YAML file of the layer, parsed strictly once; errors come back as text."""
        if relative not in self._parsed:
            self._parsed[relative] = _attempt(lambda: _yaml(self.text(relative), relative))
        return self._parsed[relative]

    def front_matter(self, relative: str) -> Parsed:
        """The front matter of a Markdown file of the layer, parsed strictly once."""
        key = f"{relative}#front-matter"
        if key not in self._parsed:
            self._parsed[key] = _attempt(lambda: _front_matter(self.text(relative), relative))
        return self._parsed[key]

    @cached_property
    def manifest(self) -> Document | None:
        """The manifest when it parses as a mapping; its defects are the layer check's to report."""
        doc, _ = self.yaml(layer.MANIFEST)
        return doc if doc is not None and isinstance(doc.data, dict) else None

    def section(self, name: str, default: str) -> str:
        """`.ai/<section>` as the manifest names it, or the skeleton's path when it cannot."""
        return layerfiles.section(self.manifest, name, default)

    @cached_property
    def layer(self) -> Layer | None:
        """The layer when it loads (the facts stage says whether it does), built from the
        parsed manifest and policy; None when either is malformed (reported apart)."""
        if not (self.facts.get("layer") or {}).get("loads"):
            return None
        policy, _ = self.yaml(self.section("policy", "repo/policy.yaml"))
        if self.manifest is None or policy is None:
            return None
        return layer.Layer(self.root, self.manifest, policy)


def _yaml(read: tuple[str | None, str | None], shown: str) -> Document:
    text, problem = read
    if text is None:
        raise MissingArtifact(problem or f"{shown}: no such file")
    known = layer.admitted(text, shown)  # the facts stage loaded this very text in-process
    if known is not None:
        return known[1]
    doc = yamlstrict.parse(text, shown)
    if doc.data is None:
        from mj_core.errors import ContractUnmet

        raise ContractUnmet(f"{shown}:1:1: empty — this file needs content")
    return doc


def _front_matter(read: tuple[str | None, str | None], shown: str) -> Document:
    text, problem = read
    if text is None:
        raise MissingArtifact(problem or f"{shown}: no such file")
    doc, _, _ = yamlstrict.split_front_matter(text, shown)
    return doc


def _attempt(parse: Callable[[], Document]) -> Parsed:
    try:
        return parse(), None
    except MjError as exc:
        return None, exc.message
