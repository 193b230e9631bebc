"""A rule package: `manifest.yaml` plus `rules/*.md`, each rule file listed with its sha256.

The tool ships one in `share/standard/majordomus/`; `init` copies it byte for byte to
`.ai/repo/rules/vendor/majordomus/`. `rules.vendorgen` writes the shipped manifest from the rule
files; `doctor` compares a vendored copy with the manifest it carries.
"""

from __future__ import annotations

from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_core.yaml.strict import Document

MANIFEST = "manifest.yaml"
HEADER = (
    "# GENERATED FILE — DO NOT EDIT DIRECTLY\n"
    "# Source: the rule files beside it; regenerate with `python -m mj_policy.rules.vendorgen`\n"
)


def sha256(path: Path) -> str:
    from mj_core import sha  # only the integrity checks hash; listing and reading rules does not

    return sha.hexdigest(path.read_bytes())


def front_matter(path: Path, shown: str) -> Document:
    """A rule file's front matter, parsed strictly (keys are checked by the caller)."""
    text = yamlstrict.read_text(path, shown)
    doc, _, _ = yamlstrict.split_front_matter(text, shown)
    return doc


def rule_files(package: Path) -> list[str]:
    """Package-relative paths of the rule files, in file-name order."""
    return sorted(f"rules/{p.name}" for p in (package / "rules").glob("*.md") if p.is_file())


def manifest_data(package: Path, *, vendor: str, revision: str) -> dict[str, Any]:
    rules = []
    for relative in rule_files(package):
        data = front_matter(package / relative, relative).data
        rules.append(
            {
                "id": data["id"],
                "version": data["version"],
                "file": relative,
                "sha256": sha256(package / relative),
            }
        )
    return {
        "vendor": vendor,
        "package": f"{vendor}-standard-rules",
        "version": 1,
        "format": "ai-rules/v1",
        "source_revision": revision,
        "rules": rules,
    }


def render(data: dict[str, Any]) -> str:
    return HEADER + yamlstrict.dump(data)
