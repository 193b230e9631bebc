from __future__ import annotations

import pytest
from mj_policy.rules import projections as ruleprojections
from mj_policy.rules.effective import Rule


def _item(
    paths: list[str] | None = None, always: bool = False, body: str = ""
) -> ruleprojections.Delivered:
    data = {
        "id": "project.api-errors",
        "version": 1,
        "title": "API errors",
        "statement": "Return problem details.",
    }
    if paths:
        data["paths"] = paths
    if always:
        data["always_loaded"] = True
    rule = Rule("project.api-errors", 1, ".ai/repo/rules/project/api.md", "project", data)
    return ruleprojections.Delivered(rule, body)


@pytest.mark.parametrize(
    ("style", "scoped", "expected"),
    [
        ("paths", True, '---\npaths:\n  - "src/api/**"\n  - "lib/*.py"\n---\n'),
        ("paths", False, ""),
        ("none", True, ""),
        (
            "cursor",
            True,
            '---\ndescription: "API errors"\nglobs: src/api/**,lib/*.py\nalwaysApply: false\n---\n',
        ),
        ("cursor", False, '---\ndescription: "API errors"\nglobs:\nalwaysApply: true\n---\n'),
        ("copilot", True, '---\napplyTo: "src/api/**,lib/*.py"\n---\n'),
        ("copilot", False, '---\napplyTo: "**"\n---\n'),
        ("windsurf", True, "---\ntrigger: glob\nglobs: src/api/**,lib/*.py\n---\n"),
        ("windsurf", False, "---\ntrigger: always_on\n---\n"),
        (
            "kiro",
            True,
            '---\ninclusion: fileMatch\nfileMatchPattern:\n  - "src/api/**"\n  - "lib/*.py"\n---\n',
        ),
        ("kiro", False, "---\ninclusion: always\n---\n"),
    ],
)
def test_each_provider_s_front_matter(style: str, scoped: bool, expected: str) -> None:
    item = _item(["src/api/**", "lib/*.py"])
    assert ruleprojections.front_matter(style, item, scoped) == expected


def test_kiro_takes_one_pattern_as_a_string() -> None:
    head = ruleprojections.front_matter("kiro", _item(["src/**"]), True)
    assert head == '---\ninclusion: fileMatch\nfileMatchPattern: "src/**"\n---\n'


@pytest.mark.parametrize(
    ("paths", "always", "folder"),
    [
        (["src/api/**"], False, "src/api"),
        (["src/api/**/*.py", "src/api/x.py"], False, "src/api"),
        (["src/api/**", "lib/**"], False, None),
        (["**/*.py"], False, None),
        (["*.md"], False, None),
        (["src/api/**"], True, None),
        (None, True, None),
    ],
)
def test_one_directory(paths: list[str] | None, always: bool, folder: str | None) -> None:
    assert ruleprojections.one_directory(_item(paths, always)) == folder


def test_the_rule_text_names_its_scope_and_its_file_and_demotes_its_headings() -> None:
    body = "# Why\n\nBecause.\n\n```\n# not a heading\n```"
    text = _item(["src/api/**"], body=body).text(2)
    assert text.startswith("## API errors (`project.api-errors@1`)\n\n")
    assert "Applies to files matching `src/api/**`." in text
    assert "### Why" in text and "\n# not a heading\n" in text
    assert text.endswith("From `.ai/repo/rules/project/api.md`; edit the rule there, not here.\n")
    always = _item(["src/api/**"], always=True).text(1)
    assert "Applies to" not in always


def test_a_pointer_names_the_rule_file_and_where_it_is_carried() -> None:
    pointer = _item(["src/api/**"]).pointer("src/api/AGENTS.md")
    assert pointer == (
        "- API errors (`project.api-errors@1`): read `.ai/repo/rules/project/api.md` when "
        "working on files matching `src/api/**`; `src/api/AGENTS.md` carries it in full there.\n"
    )
