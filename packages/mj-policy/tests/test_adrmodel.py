"""The pieces the decision records are read with: the headings a record's body is read by
(`mj_policy.layer.front_matter`) and the answers of `git cat-file --batch` the other refs' file
names
come from (`mj_policy.adr.trees`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from mj_policy.adr import trees as adrtrees
from mj_policy.layer import front_matter as frontmatter
from mj_policy.layer import init_write

ENV = {
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "PATH": "/usr/bin:/bin",
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
}
ADR = (
    "---\nschema: adr/v1\nid: adr-0001\nkind: adr\ntitle: One\nstatus: accepted\n"
    'date: "2026-09-05"\n---\n'
    "## Context\nWhy.\n## Decision\nWhat.\n## Consequences\nCost.\n"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=tmp_path, env=ENV, check=True)
    list(init_write.create(tmp_path, extend=False))
    return tmp_path


def test_headings_are_read_to_the_level_asked_and_never_inside_a_fence() -> None:
    body = "# One\na\n## Two\nb\n```\n# Not a heading\n```\n###  Three\nc\n#Four\n"
    assert frontmatter.sections(body, 1) == {
        "One": ["a", "## Two", "b", "```", "# Not a heading", "```", "###  Three", "c", "#Four", ""]
    }
    two = frontmatter.sections(body, 2)
    assert list(two) == ["One", "Two"] and two["Two"][-3:] == ["c", "#Four", ""]
    said = frontmatter.empty_sections("# A\n\n# B\nx\n", 5, "f.md", ("A", "B", "C"), 1)
    assert said == [
        ("f.md:5", "no non-empty '# A' section"),
        ("f.md:5", "no non-empty '# C' section"),
    ]


def test_the_batch_answers_are_read_one_per_question_in_order() -> None:
    tree = b"100644 0001-a.md\0" + b"\x01" * 20 + b"40000 sub\0" + b"\x02" * 20
    out = (
        b"aa" * 20 + b" tree " + str(len(tree)).encode() + b"\n" + tree + b"\n"
        + b"bb:.ai/repo/adrs missing\n"
        + b"cc" * 20 + b" blob 3\nab\n\n"
    )  # fmt: skip
    found = adrtrees._parse(out, ["a", "b", "c", "d"])
    tree = ("aa" * 20, ["0001-a.md", "sub"])
    assert found == {"a": tree, "b": ("", []), "c": ("", [])}  # d: no answer, asked again


def test_the_listing_of_each_commit_is_kept_and_a_new_tip_is_asked_again(root: Path) -> None:
    adrs = root / ".ai/repo/adrs"
    (adrs / "0001-one.md").write_text(ADR)
    subprocess.run(["git", "add", "-A"], cwd=root, env=ENV, check=True)
    subprocess.run(["git", "commit", "-qm", "one"], cwd=root, env=ENV, check=True)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, env=ENV, check=True,
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    first = adrtrees.listings(root, [head], ".ai/repo/adrs")
    assert "0001-one.md" in first[head]
    assert head in (root / adrtrees.CACHE).read_text()
    (adrs / "0002-two.md").write_text(ADR.replace("0001", "0002"))
    subprocess.run(["git", "add", "-A"], cwd=root, env=ENV, check=True)
    subprocess.run(["git", "commit", "-qm", "two"], cwd=root, env=ENV, check=True)
    newer = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, env=ENV, check=True,
                           capture_output=True, text=True).stdout.strip()  # fmt: skip
    both = adrtrees.listings(root, [head, newer], ".ai/repo/adrs")
    assert "0002-two.md" in both[newer] and "0002-two.md" not in both[head]
    subprocess.run(["git", "commit", "-qm", "same tree", "--allow-empty"], cwd=root, env=ENV,
                   check=True)  # fmt: skip
    same = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, env=ENV, check=True,
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    shared = adrtrees.listings(root, [newer, same], ".ai/repo/adrs")
    assert shared[same] == both[newer] and shared[same] is shared[newer]  # one list of names
    assert (root / adrtrees.CACHE).read_text().count("0002-two.md") == 1
    (root / adrtrees.CACHE).write_text("not json")  # a broken cache is no cache
    assert adrtrees.listings(root, [newer], ".ai/repo/adrs") == {newer: both[newer]}
