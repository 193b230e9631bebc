"""A process reads each layer text once: a command whose stages each load the layer (the
session's end runs three) parses and checks the manifest, the policy and a profile the first
time only, and any change to a file is read again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from mj_core import share
from mj_core.errors import ContractUnmet
from mj_core.yaml import strict as yamlstrict
from mj_policy.layer import loader as layer

POLICY = ".ai/repo/policy.yaml"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(share.path("skeleton", "ai"), tmp_path / ".ai")
    return tmp_path


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the texts parsed from here on."""
    seen: list[str] = []
    real = yamlstrict.parse

    def counted(text: str, name: str, **kwargs: int) -> yamlstrict.Document:
        seen.append(name)
        return real(text, name, **kwargs)

    monkeypatch.setattr(yamlstrict, "parse", counted)
    return seen


def test_a_second_load_of_the_same_files_parses_nothing(root: Path, parses: list[str]) -> None:
    first = layer.load(root)
    first.profile("routine")
    parsed = list(parses)
    second = layer.load(root)
    assert second.profile("routine") is first.profile("routine")
    assert second.policy is first.policy and second.manifest is first.manifest
    assert parses == parsed
    assert second is not first  # a layer's own memory (profiles read, rules) starts empty


def test_a_changed_file_is_read_again(root: Path, parses: list[str]) -> None:
    first = layer.load(root)
    before = parses.count(POLICY)
    path = root / POLICY
    path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    second = layer.load(root)
    assert parses.count(POLICY) == before + 1
    assert second.policy is not first.policy and second.policy.data == first.policy.data


def test_a_text_refused_once_is_refused_again(root: Path) -> None:
    path = root / POLICY
    path.write_text(path.read_text(encoding="utf-8") + "surprise: 1\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ContractUnmet, match="unknown key 'surprise'"):
            layer.load(root)


def test_a_text_kept_as_one_kind_is_checked_as_another(root: Path) -> None:
    """The policy's text, read as a profile, is held to the profile's keys, not let through
    because it passed as a policy."""
    layer.load(root)
    profiles = root / ".ai/repo/profiles"
    shutil.copy(root / POLICY, profiles / "odd.yaml")
    with pytest.raises(ContractUnmet, match=r"odd\.yaml"):
        layer.load(root).profile("odd")


def test_the_doctor_judge_reads_the_loaded_text_without_parsing(
    root: Path, parses: list[str]
) -> None:
    loaded = layer.load(root)
    text = (root / POLICY).read_text(encoding="utf-8")
    assert layer.admitted(text, POLICY) == ("policy", loaded.policy)
    assert layer.admitted(text + "\n", POLICY) is None
    assert layer.admitted(text, ".ai/repo/other.yaml") is None
