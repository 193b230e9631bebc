"""doctor judges the context documents and the prompt assets (majordomus.context-integrity,
majordomus.prompt-integrity): what `context validate` and `prompt render` would refuse fails
doctor, naming the file."""

from __future__ import annotations

import pytest
from conftest import Repo
from conftest import failures
from conftest import wire

NOTES = """---
schema: context/v1
id: ai.repo.notes
kind: context
title: Notes
description: Notes.
status: active
scope: subtree
providers:
  - "*"
audience:
  - agent
composition: extend
order: 20
children:
  require_contract: false
  exempt: []
---

# Notes
"""


@pytest.fixture
def governed(layer_repo: Repo) -> Repo:
    wire(layer_repo)
    assert layer_repo.mj("update").code == 0
    layer_repo.write(".ai/repo/notes/README.md", NOTES)
    layer_repo.commit("notes")
    doctor = layer_repo.mj("doctor")
    assert doctor.code == 0, doctor
    assert "OK   context     .ai — 4 context document(s) validate as one tree" in doctor.out
    assert "prompt asset(s), every token known" in doctor.out
    return layer_repo


@pytest.mark.parametrize(
    ("change", "cls"),
    [
        (("order: 20", "order: twenty"), "invalid-front-matter"),
        (("order: 20", "order: 20\ncolour: red"), "unknown-key"),
        (("id: ai.repo.notes", "id: ai.repo"), "duplicate-id"),
        (("schema: context/v1", "schema: context/v9"), "unsupported-schema"),
    ],
)
def test_a_broken_context_document_fails_doctor_as_validate_names_it(
    governed: Repo, change: tuple[str, str], cls: str
) -> None:
    governed.write(".ai/repo/notes/README.md", NOTES.replace(*change))
    doctor = governed.mj("doctor")
    assert doctor.code == 10, doctor
    found = [f for f in failures(doctor.out) if f[0] == "context"]
    assert found and found[0][1].startswith(".ai/repo/"), doctor.out
    assert any(f[2].startswith(cls) for f in found), found
    assert all(f[3] == "majordomus context validate" for f in found)
    validate = governed.mj("context", "validate")
    assert validate.code == 10 and cls in validate.out, validate


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("{{TASK}}", "{{NOPE}}"), "NOPE"),
        (("description:", "summary:"), "summary"),
    ],
)
def test_a_broken_prompt_asset_fails_doctor(
    governed: Repo, change: tuple[str, str], said: str
) -> None:
    path = governed.root / ".ai/repo/prompts/resume.md"
    text = path.read_text(encoding="utf-8")
    assert change[0] in text
    path.write_text(text.replace(*change, 1), encoding="utf-8")
    doctor = governed.mj("doctor")
    assert doctor.code == 10, doctor
    found = [f for f in failures(doctor.out) if f[0] == "prompts"]
    assert found and found[0][1] == ".ai/repo/prompts/resume.md" and said in found[0][2], found
    assert governed.mj("check", "--rule", "majordomus.prompt-integrity").code == 10
