"""`init --import` on instruction files a careless or hostile hand wrote: front matter the
provider would not read, files too large or not text, links out of the repository, names the
provenance cannot carry. Each is one line naming the file (the line, the key) with its exit
code, and nothing is written: no layer, no rule."""

from __future__ import annotations

import os

import pytest
from conftest import Repo


def refused(repo: Repo, code: int, message: str) -> None:
    result = repo.mj("init", "--import")
    assert result.code == code, result
    assert result.err.count("\n") == 1 and "Traceback" not in result.err, result.err
    assert result.err.startswith(f"majordomus: {message}"), result.err
    assert not (repo.root / ".ai").exists()


@pytest.mark.parametrize(
    ("path", "text", "message"),
    [
        (
            ".cursor/rules/x.mdc",
            "---\ndescription: x\npriority: 1\n---\nBe kind.\n",
            ".cursor/rules/x.mdc:3: unknown key 'priority' — this file's front matter carries "
            "description, globs, alwaysApply",
        ),
        (
            ".github/instructions/y.instructions.md",
            "---\napplyTo **/*.py\n---\nType everything.\n",
            ".github/instructions/y.instructions.md:2: not a 'key: value' line",
        ),
        (
            ".cursor/rules/x.mdc",
            "---\nalwaysApply: sometimes\n---\nBe kind.\n",
            ".cursor/rules/x.mdc:2: key 'alwaysApply' is true or false",
        ),
        (
            ".cursor/rules/x.mdc",
            "---\nglobs: ../outside/**\n---\nBe kind.\n",
            ".cursor/rules/x.mdc:2: key 'globs': '../outside/**' leaves the repository",
        ),
        (
            ".cursor/rules/x.mdc",
            "---\nglobs: a\nglobs: b\n---\nBe kind.\n",
            ".cursor/rules/x.mdc:3: repeated key 'globs'",
        ),
        (
            ".github/instructions/y.instructions.md",
            "---\napplyTo: '**'\nType everything.\n",
            ".github/instructions/y.instructions.md:1: front matter is not closed",
        ),
        (
            "CLAUDE.md",
            "---\ntitle: mine\n---\nBe kind.\n",
            "CLAUDE.md:2: unknown key 'title' — its client reads no front matter in this file",
        ),
    ],
)
def test_front_matter_the_provider_would_not_read_is_10(
    git_repo: Repo, path: str, text: str, message: str
) -> None:
    git_repo.write(path, text)
    refused(git_repo, 10, message)


def test_a_file_over_the_layer_limit_is_10(git_repo: Repo) -> None:
    git_repo.write("AGENTS.md", "Keep it short.\n" * 80000)
    refused(git_repo, 10, "AGENTS.md")


def test_a_line_over_the_line_limit_is_10_naming_the_line(git_repo: Repo) -> None:
    git_repo.write("AGENTS.md", "# Rules\n\n" + "x" * 20000 + "\n")
    refused(git_repo, 10, "AGENTS.md:3")


def test_binary_and_undecodable_files_are_10(git_repo: Repo) -> None:
    (git_repo.root / "GEMINI.md").write_bytes(b"Be kind.\n\x00\x01\x02\n")
    refused(git_repo, 10, "GEMINI.md:2: a NUL byte — not a text file")
    (git_repo.root / "GEMINI.md").write_bytes(b"caf\xe9\n")
    refused(git_repo, 10, "GEMINI.md:1:1: not UTF-8")


def test_a_link_out_of_the_repository_is_15_and_never_read(git_repo: Repo, tmp_path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("the contents of a file outside\n")
    os.symlink(secret, git_repo.root / "CLAUDE.md")
    refused(git_repo, 15, f"CLAUDE.md: a symbolic link to {secret}, outside the repository")


def test_a_link_inside_the_repository_is_read_as_its_file(git_repo: Repo) -> None:
    git_repo.write("AGENTS.md", "## Testing\n\nRun the tests.\n")
    os.symlink("AGENTS.md", git_repo.root / "CLAUDE.md")
    result = git_repo.mj("init", "--import")
    assert result.code == 0, result
    made = (git_repo.root / ".ai/repo/rules/project/testing.v1.md").read_text()
    assert "- file: AGENTS.md" in made and "- file: CLAUDE.md" in made
    update = git_repo.mj("update")  # a link is never written through, imported or not
    assert update.code == 15 and "CLAUDE.md: is a symbolic link" in update.err, update
    (git_repo.root / "CLAUDE.md").unlink()
    assert git_repo.mj("update").code == 0


def test_a_name_with_a_control_character_is_10(git_repo: Repo) -> None:
    git_repo.write("odd\tdir/AGENTS.md", "Be kind.\n")
    refused(git_repo, 10, "odd\\u0009dir/AGENTS.md: a file name with bytes that are not UTF-8")


def test_a_name_that_is_not_utf8_is_10(git_repo: Repo) -> None:
    folder = os.path.join(os.fsencode(git_repo.root), b"caf\xe9")
    os.mkdir(folder)
    with open(os.path.join(folder, b"AGENTS.md"), "wb") as handle:
        handle.write(b"Be kind.\n")
    refused(git_repo, 10, "caf\\xe9/AGENTS.md: a file name with bytes that are not UTF-8")


def test_a_directory_a_rule_path_cannot_spell_is_matched_wider_never_narrower(
    git_repo: Repo,
) -> None:
    git_repo.write("my docs (old)/AGENTS.md", "Docs are written in British English.\n")
    assert git_repo.mj("init", "--import").code == 0
    made = (git_repo.root / ".ai/repo/rules/project/my-docs-old-agents-md.v1.md").read_text()
    assert 'paths:\n  - "my?docs??old?/**"\n' in made


def test_references_leaving_the_repository_or_looping_are_kept_as_text(git_repo: Repo) -> None:
    git_repo.write("CLAUDE.md", "## Notes\n\nSee @../outside.md and @~/.claude/mine.md.\n\n@a.md\n")
    git_repo.write("a.md", "Loop back to @CLAUDE.md here.\n")
    result = git_repo.mj("init", "--import")
    assert result.code == 0, result
    notes = (git_repo.root / ".ai/repo/rules/project/notes.v1.md").read_text()
    assert "See @../outside.md and @~/.claude/mine.md." in notes
    looped = (git_repo.root / ".ai/repo/rules/project/a-md.v1.md").read_text()
    assert "Loop back to @CLAUDE.md here." in looped and "via: CLAUDE.md:5" in looped


def test_a_malformed_region_of_the_tool_is_15(git_repo: Repo) -> None:
    git_repo.write(
        "CLAUDE.md", "Be kind.\n<!-- majordomus:begin 0123456789ab 0123456789abcdef -->\n"
    )
    refused(git_repo, 15, "CLAUDE.md:2: unclosed region")


def test_a_reference_to_a_file_that_is_not_text_stays_as_written(git_repo: Repo) -> None:
    git_repo.write(
        "CLAUDE.md", "## Brand\n\nUse the logo as drawn.\n\n@assets/logo.png\n@.git/config\n"
    )
    (git_repo.root / "assets").mkdir()
    (git_repo.root / "assets/logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    result = git_repo.mj("init", "--import")
    assert result.code == 0, result
    brand = (git_repo.root / ".ai/repo/rules/project/brand.v1.md").read_text()
    assert brand.endswith("Use the logo as drawn.\n\n@assets/logo.png\n@.git/config\n")
    assert len(list((git_repo.root / ".ai/repo/rules/project").glob("*.md"))) == 1
