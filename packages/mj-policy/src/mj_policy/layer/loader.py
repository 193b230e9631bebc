"""The layer loader: `.ai/manifest.yaml`, the policy and the profiles, read strictly.

Every other tool reads the layer through `load(root)`. Loading is cheap on purpose (strict YAML,
the generated allow lists, a walk of the schema's required keys and `schema.quick_violations`
for types, enums and patterns; jsonschema is not imported): a hook pays for it on every commit.
A loaded layer can be trusted: every key is known, present and of its schema's shape.
"""

from __future__ import annotations

import re
from pathlib import Path

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.schema import full as schema
from mj_core.schema import keys
from mj_core.schema import required
from mj_core.yaml import strict as yamlstrict
from mj_core.yaml.strict import Document

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable

    from mj_policy.rules.item import Rule

MANIFEST = ".ai/manifest.yaml"
SCHEMA = "ai-repository/v1"
_PROFILE_NAME = r"[a-z][a-z0-9-]*"  # compiled by `re` on first use: few runs read a profile
_COVERED = ("required", "additionalProperties")  # reported above, with their own wording
_SCHEMAS = "share/schemas"


class Layer:
    """The loaded layer: the repository root, the manifest and the policy (read-only)."""

    __slots__ = ("_profiles", "manifest", "policy", "root", "rules_resolved")

    def __init__(self, root: Path, manifest: Document, policy: Document) -> None:
        self.root = root
        self.manifest = manifest
        self.policy = policy
        self._profiles: dict[str, Document] = {}  # each profile read once per loaded layer
        self.rules_resolved: list[Rule] | None = None  # `rules.effective`, once per loaded layer

    @property
    def ai(self) -> Path:
        return self.root / ".ai"

    @property
    def local(self) -> Path:
        return self.ai / "local"

    @property
    def state(self) -> Path:
        return self.local / "state"

    def section(self, name: str) -> Path:
        """The path a manifest section resolves to (relative to `.ai/` in the manifest)."""
        return self.ai / section_value(self.manifest, name)

    def relative(self, path: Path) -> str:
        """`path` as the repository-relative text messages and reproduce commands use."""
        return path.relative_to(self.root).as_posix()

    def profile(self, name: str) -> Document:
        """A profile, parsed strictly; absent → 12, unknown or missing keys → 10."""
        found = self._profiles.get(name)
        if found is None:
            found = self._profiles[name] = self._read_profile(name)
        return found

    def _read_profile(self, name: str) -> Document:
        directory = self.section("profiles")
        path = directory / f"{name}.yaml"
        shown = self.relative(path) if re.fullmatch(_PROFILE_NAME, name) else repr(name)
        if not re.fullmatch(_PROFILE_NAME, name) or not path.is_file():
            raise MissingArtifact(
                f"{shown}: no such profile — profiles are the *.yaml files in "
                f"{self.relative(directory)}/ ({', '.join(self.profile_names()) or 'none'})"
            )
        shown = self.relative(path)
        return _read(path, shown, "profile", _anything)

    def profile_names(self) -> list[str]:
        directory = self.section("profiles")
        if not directory.is_dir():
            return []
        return sorted(p.stem for p in directory.glob("*.yaml") if p.is_file())


def section_value(manifest: Document, name: str) -> str:
    """The manifest's text for section `name`; a missing or escaping value is refused (10)."""
    sections = manifest.data.get("sections") if isinstance(manifest.data, dict) else None
    value = sections.get(name) if isinstance(sections, dict) else None
    where = manifest.where(("sections", name))
    if not isinstance(value, str) or not value:
        raise ContractUnmet(f"{where}: section '{name}' names no path — add `{name}: repo/...`")
    if value.startswith("/") or ".." in value.split("/"):
        raise ContractUnmet(f"{where}: section '{name}' leaves .ai/ ({value}) — keep it inside")
    return value


def close(doc: Document, kind: str) -> Document:
    """Refuse (10) a layer file that is not a mapping, has an unknown or missing key, or a value
    of the wrong type, enum or pattern (checked without jsonschema: hooks pay for this)."""
    if not isinstance(doc.data, dict):
        raise ContractUnmet(f"{doc.name}:1:1: not a mapping — write `key: value` lines")
    for where, key in keys.unknown_keys(doc, kind):
        raise ContractUnmet(
            f"{where}: unknown key '{key}' — remove it or fix its spelling "
            f"(the keys a {kind} may carry: share/allow/{kind}.txt)"
        )
    for where, key in required.missing_keys(doc, kind):
        raise ContractUnmet(f"{where}: missing key '{key}' — add it (no key has a default)")
    for where, message in schema.quick_violations(doc, kind, skip=_COVERED):
        raise ContractUnmet(f"{where}: {message} — fix the value ({_SCHEMAS}/{kind}.schema.json)")
    return doc


def absent(root: Path) -> MissingArtifact:
    """The error for a repository without a layer (12), naming the command that creates one."""
    return MissingArtifact(
        f"{MANIFEST}: no Majordomus layer in {root} — run `majordomus init` to create it"
    )


def _manifest(root: Path) -> Document:
    path = root / MANIFEST
    if not path.exists():
        raise absent(root)
    return _read(path, MANIFEST, "manifest", _understood)


def _understood(doc: Document) -> None:
    schema = doc.data.get("schema") if isinstance(doc.data, dict) else None
    if schema != SCHEMA:
        raise ContractUnmet(
            f"{doc.where(('schema',))}: manifest schema {schema!r} is not understood by this "
            f"majordomus, which reads {SCHEMA} — use a majordomus that reads it, or rewrite "
            f"the manifest as {SCHEMA}"
        )


def _policy(root: Path, manifest: Document) -> Document:
    shown = f".ai/{section_value(manifest, 'policy')}"
    path = root / shown
    if not path.exists():
        raise MissingArtifact(f"{shown}: no policy — `majordomus init --extend` writes one")
    return _read(path, shown, "policy", _supported)


def _supported(doc: Document) -> None:
    version = doc.data.get("version") if isinstance(doc.data, dict) else None
    if (
        isinstance(doc.data, dict)
        and "version" in doc.data
        and (type(version) is not int or version != 1)
    ):
        raise ContractUnmet(
            f"{doc.where(('version',))}: policy version {version!r} is not supported — "
            "this majordomus reads version 1 only"
        )


def _anything(doc: Document) -> None:
    """A profile has no version of its own: its keys are the whole check."""


_ADMITTED: dict[tuple[str, str], tuple[str, Document]] = {}  # (name, text) → (kind, document)
_KEPT = 8  # a command's stages read the same manifest, policy and a profile or two


def _read(path: Path, shown: str, kind: str, admit: Callable[[Document], None]) -> Document:
    """The layer file at `path`, parsed, admitted and closed (`close`). A text this process has
    already admitted under the same name and kind is not parsed or checked again: a command whose
    stages each load the layer (`capture`'s session end runs three) reads it once. A layer's
    Documents are read-only, so one may serve every load of the same text."""
    text = yamlstrict.read_text(path, shown)
    known = admitted(text, shown)
    if known is not None and known[0] == kind:
        return known[1]
    doc = yamlstrict.parse(text, shown)
    if doc.data is None:
        raise ContractUnmet(f"{shown}:1:1: empty — this file needs content")
    admit(doc)
    close(doc, kind)
    if len(_ADMITTED) >= _KEPT:
        del _ADMITTED[next(iter(_ADMITTED))]
    _ADMITTED[(shown, text)] = (kind, doc)
    return doc


def admitted(text: str, shown: str) -> tuple[str, Document] | None:
    """(kind, Document) when this process has admitted `text` as the layer file `shown`."""
    return _ADMITTED.get((shown, text))


def load(root: Path) -> Layer:
    """The layer at `root`: no manifest → 12 naming `majordomus init`; anything malformed → 10."""
    manifest = _manifest(root)
    return Layer(root=root, manifest=manifest, policy=_policy(root, manifest))
