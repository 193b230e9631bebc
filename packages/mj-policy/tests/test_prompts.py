"""Prompt assets: front matter, the closed token set, substitution without a template language."""

from __future__ import annotations

from pathlib import Path

import pytest
from mj_core import share
from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_policy.prompts import assets as prompts

GOOD = "---\nname: p\ndescription: a frame\n---\nTask {{TASK_ID}} on {{BRANCH}}\n{{DECISIONS}}\n"


def asset(tmp_path: Path, text: str) -> prompts.Asset:
    (tmp_path / "p.md").write_text(text)
    return prompts.load(tmp_path, "p", "prompts")


def test_the_skeleton_ships_resume_and_debug_and_they_check() -> None:
    directory = share.path("skeleton", "ai", "repo", "prompts")
    assert {"resume", "debug"} <= set(prompts.names(directory))
    for name in prompts.names(directory):
        assert prompts.load(directory, name, "prompts").description


def test_render_fills_inline_and_block_tokens(tmp_path: Path) -> None:
    found = asset(tmp_path, GOOD)
    text = prompts.render(found, {"TASK_ID": "t-1", "BRANCH": "main"}, {"DECISIONS": ["a", "b"]})
    assert text == "Task t-1 on main\na\nb\n"
    assert found.blocks() == ["DECISIONS"]


@pytest.mark.parametrize(
    ("body", "line", "what"),
    [
        ("ok\n{{TSAK}}\n", 6, "unknown token"),
        ("see {{DECISIONS}} here\n", 5, "alone on its line"),
        ("{{#if TASK}}x{{/if}}\n", 5, "unknown token"),
        ("{{include other}}\n", 5, "unknown token"),
        ("a {{TASK\n", 5, "unbalanced"),
    ],
)
def test_any_other_token_is_refused_naming_the_line(
    tmp_path: Path, body: str, line: int, what: str
) -> None:
    with pytest.raises(ContractUnmet, match=rf"prompts/p\.md:{line}: .*{what}"):
        asset(tmp_path, "---\nname: p\ndescription: d\n---\n" + body)


@pytest.mark.parametrize(
    ("front", "what"),
    [
        ("name: p\ndescription: d\ncolour: red\n", "unknown key 'colour'"),
        ("name: q\ndescription: d\n", "file stem"),
        ("name: p\n", "description"),
    ],
)
def test_front_matter_is_closed(tmp_path: Path, front: str, what: str) -> None:
    with pytest.raises(ContractUnmet, match=what):
        asset(tmp_path, f"---\n{front}---\nbody\n")


def test_an_unknown_asset_is_missing(tmp_path: Path) -> None:
    with pytest.raises(MissingArtifact, match="no such prompt asset"):
        prompts.load(tmp_path, "nope", "prompts")


def test_prompt_records_validate_against_the_pipeline_schema() -> None:
    import json

    import jsonschema

    schema = json.loads(share.read_text("schemas", "pipeline", "prompt.json"))
    directory = share.path("skeleton", "ai", "repo", "prompts")
    for name in prompts.names(directory):
        asset = prompts.load(directory, name, "prompts")
        jsonschema.Draft202012Validator(schema).validate({**asset.record(), "body": asset.body})
