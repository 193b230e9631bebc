"""The skeleton `init` writes is valid under every schema it falls under."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mj_core import share
from mj_core.schema import full as schema
from mj_core.schema import keys
from mj_core.yaml import strict as yamlstrict

SKELETON = share.path("skeleton", "ai")
TOKENS = re.compile(r"\{\{([A-Z_]+)\}\}")
INLINE = {"TASK", "TASK_ID", "PROFILE", "SCOPE", "OWNER", "BRANCH", "HEAD", "WORKING_TREE"}
INLINE |= {"REPOSITORY", "NOW"}
BLOCK = {"OPEN_QUESTIONS", "DECISIONS", "CHECKPOINT", "HANDOVER", "CONTEXT"}


def _valid(doc: yamlstrict.Document, kind: str) -> None:
    assert keys.unknown_keys(doc, kind) == []
    assert schema.violations(doc, kind) == []


@pytest.mark.parametrize(
    ("relative", "kind"),
    [("manifest.yaml", "manifest"), ("repo/policy.yaml", "policy")]
    + [
        (f"repo/profiles/{p.name}", "profile")
        for p in sorted((SKELETON / "repo/profiles").glob("*.yaml"))
    ],
)
def test_layer_files_validate(relative: str, kind: str) -> None:
    _valid(yamlstrict.load_file(SKELETON / relative, relative), kind)


def test_four_profiles_differ_on_every_axis() -> None:
    profiles = {
        p.stem: yamlstrict.load_file(p).data for p in (SKELETON / "repo/profiles").glob("*.yaml")
    }
    assert sorted(profiles) == ["debugging", "deep-work", "implementation", "routine"]
    for name, data in profiles.items():
        assert data["name"] == name
    assert len({p["capability"] for p in profiles.values()}) == 4
    assert len({str(p["context"]) for p in profiles.values()}) == 4
    assert len({str(p["verification"]) for p in profiles.values()}) == 4


def test_every_readme_is_a_valid_context_document() -> None:
    readmes = sorted(SKELETON.rglob("README.md"))
    assert len(readmes) >= 3
    ids = set()
    for path in readmes:
        doc, body, _ = yamlstrict.split_front_matter(path.read_text(), str(path))
        _valid(doc, "context")
        ids.add(doc.data["id"])
        assert body.strip()
    assert len(ids) == len(readmes)


@pytest.mark.parametrize("path", sorted((SKELETON / "repo/prompts").glob("*.md")), ids=str)
def test_prompt_assets_use_only_the_closed_token_set(path: Path) -> None:
    doc, body, _ = yamlstrict.split_front_matter(path.read_text(), str(path))
    assert set(doc.data) <= {"name", "description", "profile"}
    assert doc.data["name"] == path.stem and doc.data["description"]
    for line in body.splitlines():
        for token in TOKENS.findall(line):
            if token in BLOCK:
                assert line.strip() == f"{{{{{token}}}}}", line
            else:
                assert token in INLINE, token


def test_sources_declare_the_context_class_first() -> None:
    data = yamlstrict.load_file(SKELETON / "repo/knowledge/sources.yaml").data
    assert data["sources"][0]["id"] == "context"


def test_directory_list_names_layer_paths_only() -> None:
    lines = share.read_text("skeleton", "directories.txt").splitlines()
    entries = [line for line in lines if line and not line.startswith("#")]
    assert entries and all(e.startswith(".ai/") and ".." not in e for e in entries)
