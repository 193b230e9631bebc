"""`majordomus init`: the whole layer from the shipped skeleton, refusals, --extend, .gitignore."""

from __future__ import annotations

import hashlib
import json
import re
import stat
from pathlib import Path

import pytest
from conftest import Repo
from conftest import exe

LAYER_FILES = [
    ".ai/README.md",
    ".ai/manifest.yaml",
    ".ai/repo/README.md",
    ".ai/repo/policy.yaml",
    ".ai/repo/profiles/routine.yaml",
    ".ai/repo/profiles/implementation.yaml",
    ".ai/repo/profiles/debugging.yaml",
    ".ai/repo/profiles/deep-work.yaml",
    ".ai/repo/rules/README.md",
    ".ai/repo/rules/vendor/majordomus/manifest.yaml",
    ".ai/repo/prompts/resume.md",
    ".ai/repo/prompts/debug.md",
    ".ai/repo/knowledge/sources.yaml",
    ".ai/local/state/decisions.md",
    ".ai/local/state/open-questions.md",
]
LAYER_DIRS = [
    ".ai/repo/rules/project",
    ".ai/repo/skills",
    ".ai/repo/workflows",
    ".ai/repo/knowledge/curated",
    ".ai/repo/adrs",
    ".ai/repo/project",
    ".ai/local/state/handovers",
    ".ai/local/state/checkpoints",
    ".ai/local/cache",
]
HOOK_LINE = re.compile(r"^  (\S+): (\S*majordomus .* \|\| exit \$\?)$", re.M)


def hook_lines(output: str) -> list[tuple[str, str]]:
    return HOOK_LINE.findall(output)


def test_init_writes_the_whole_layer(git_repo: Repo) -> None:
    result = git_repo.mj("init")
    assert result.code == 0, result
    assert result.err == ""
    for relative in LAYER_FILES:
        assert (git_repo.root / relative).is_file(), relative
        assert f"  {relative}\n" in result.out, relative
    for relative in LAYER_DIRS:
        assert (git_repo.root / relative).is_dir(), relative
    assert result.out.startswith("created\n")
    assert "local state: .ai/local/state/" in result.out
    assert "next: majordomus doctor" in result.out


def test_the_vendored_package_matches_its_manifest_byte_for_byte(git_repo: Repo) -> None:
    git_repo.mj("init")
    package = git_repo.root / ".ai/repo/rules/vendor/majordomus"
    manifest = (package / "manifest.yaml").read_text()
    listed = re.findall(r"file: (\S+)\n\s+sha256: ([0-9a-f]{64})", manifest)
    assert listed, manifest
    for relative, digest in listed:
        assert hashlib.sha256((package / relative).read_bytes()).hexdigest() == digest
    files = sorted(p.relative_to(package).as_posix() for p in package.rglob("*") if p.is_file())
    assert files == sorted(["manifest.yaml", *(f for f, _ in listed)])


def test_init_prints_the_two_hook_lines_and_installs_no_hook(git_repo: Repo) -> None:
    result = git_repo.mj("init")
    assert hook_lines(result.out) == [
        (".git/hooks/pre-commit", f"{exe('majordomus')} doctor --brief || exit $?"),
        (".git/hooks/pre-push", f"{exe('majordomus')} finish --check || exit $?"),
    ]
    hooks = git_repo.root / ".git" / "hooks"
    assert not (hooks / "pre-commit").exists() and not (hooks / "pre-push").exists()


def test_gitignore_gets_one_line_once(git_repo: Repo) -> None:
    git_repo.write(".gitignore", "build/")  # no trailing newline
    assert git_repo.mj("init").code == 0
    assert (git_repo.root / ".gitignore").read_text() == "build/\n.ai/local\n"
    assert git_repo.mj("init", "--extend").code == 0
    assert (git_repo.root / ".gitignore").read_text().count(".ai/local") == 1
    assert git_repo.git("check-ignore", ".ai/local/state/decisions.md").strip()


@pytest.mark.parametrize("line", [".ai/local", "/.ai/local"])
def test_an_existing_ignore_line_is_kept(git_repo: Repo, line: str) -> None:
    git_repo.write(".gitignore", f"{line}\n")
    result = git_repo.mj("init")
    assert ".gitignore:" not in result.out
    assert (git_repo.root / ".gitignore").read_text() == f"{line}\n"


@pytest.mark.parametrize("line", [".ai/local/", "/.ai/local/", ".ai/local/*"])
def test_a_directory_only_ignore_line_gets_the_line_that_also_ignores_a_link(
    git_repo: Repo, line: str
) -> None:
    git_repo.write(".gitignore", f"{line}\n")
    result = git_repo.mj("init")
    assert ".gitignore:.ai/local" in result.out
    assert (git_repo.root / ".gitignore").read_text() == f"{line}\n.ai/local\n"
    (git_repo.root / ".ai/local").rename(git_repo.root / "moved")
    (git_repo.root / ".ai/local").symlink_to(git_repo.root / "moved")
    assert git_repo.git("check-ignore", ".ai/local").strip() == ".ai/local"


def test_init_writes_only_the_layer_and_gitignore(git_repo: Repo) -> None:
    git_repo.mj("init")
    status = git_repo.git("status", "--porcelain", "--untracked-files=normal").splitlines()
    assert sorted(status) == ["?? .ai/", "?? .gitignore"]
    assert git_repo.git("diff", "--cached", "--name-only") == ""  # nothing staged


def test_a_fresh_clone_keeps_every_tracked_section(git_repo: Repo, tmp_path: Path) -> None:
    git_repo.mj("init")
    git_repo.commit("adopt")
    clone = tmp_path / "clone"
    git_repo.git("clone", "-q", str(git_repo.root), str(clone))
    for relative in LAYER_DIRS:
        if relative.startswith(".ai/repo/"):
            assert (clone / relative).is_dir(), relative
    assert not (clone / ".ai/local").exists()


def test_init_refuses_an_existing_layer_naming_extend(layer_repo: Repo) -> None:
    before = (layer_repo.root / ".ai/repo/policy.yaml").read_bytes()
    result = layer_repo.mj("init")
    assert result.code == 15, result
    assert result.out == ""
    assert result.err.count("\n") == 1 and "--extend" in result.err
    assert "already exists" in result.err
    assert (layer_repo.root / ".ai/repo/policy.yaml").read_bytes() == before


def test_init_refuses_an_ai_directory_without_manifest(git_repo: Repo) -> None:
    git_repo.write(".ai/notes.txt", "mine\n")
    result = git_repo.mj("init")
    assert result.code == 15, result
    assert "--extend" in result.err and "move it aside" in result.err
    assert result.err.count("\n") == 1
    assert sorted(p.name for p in (git_repo.root / ".ai").iterdir()) == ["notes.txt"]


def test_extend_adds_only_what_is_missing(layer_repo: Repo) -> None:
    root = layer_repo.root
    (root / ".ai/repo/profiles/routine.yaml").unlink()
    policy = root / ".ai/repo/policy.yaml"
    edited = policy.read_text() + "# edited by the repository\n"
    policy.write_text(edited)
    result = layer_repo.mj("init", "--extend")
    assert result.code == 0, result
    created = re.findall(r"^  (\.ai/\S+)$", result.out, re.M)
    assert created == [".ai/repo/profiles/routine.yaml"]
    assert policy.read_text() == edited
    again = layer_repo.mj("init", "--extend")
    assert again.code == 0 and again.out.startswith("nothing to add\n")


def test_extend_completes_an_ai_directory_without_manifest(git_repo: Repo) -> None:
    git_repo.write(".ai/notes.txt", "mine\n")
    assert git_repo.mj("init", "--extend").code == 0
    assert (git_repo.root / ".ai/manifest.yaml").is_file()
    assert (git_repo.root / ".ai/notes.txt").read_text() == "mine\n"
    assert git_repo.mj("doctor").code != 12


def test_layer_files_are_not_executable(git_repo: Repo) -> None:
    git_repo.mj("init")
    for relative in LAYER_FILES:
        mode = (git_repo.root / relative).stat().st_mode
        assert not mode & (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH), relative


def test_init_outside_git_is_a_usage_error(tmp_path: Path, git_repo: Repo) -> None:
    outside = tmp_path / "plain"
    outside.mkdir()
    result = git_repo.run("init", cwd=outside)
    assert result.code == 2, result
    assert result.err.count("\n") == 1
    assert not (outside / ".ai").exists()


def test_init_refuses_a_layer_that_leads_out_of_the_repository(
    git_repo: Repo, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (git_repo.root / ".ai").symlink_to(elsewhere)
    result = git_repo.mj("init", "--extend")
    assert result.code == 15, result
    assert list(elsewhere.iterdir()) == []


def _events(root: Path) -> list[dict[str, object]]:
    ledger = root / ".ai/local/state/ledger.jsonl"
    return [json.loads(x) for x in ledger.read_text().splitlines()] if ledger.exists() else []


def test_the_bootstrap_hatch_records_the_adoption_once_then_shuts(
    git_repo: Repo, tmp_path: Path
) -> None:
    """DESIGN (security): the bootstrap applies only while this checkout has no ledger, records
    an event and is then dead: the first `init` writes `layer.adopted` and offers the adoption's
    steps; a later `init --extend` adds what is missing, records nothing and offers none."""
    first = git_repo.mj("init")
    assert first.code == 0, first
    listed = first.out.split("\nlocal state:")[0].splitlines()[1:]  # under "created"
    assert [(e["event"], e["created"], e["extend"]) for e in _events(git_repo.root)] == [
        ("layer.adopted", len(listed), False)
    ]
    assert "git commit -m 'Adopt majordomus'" in first.out and "layer.adopted recorded" in first.out
    (git_repo.root / ".ai/repo/prompts/debug.md").unlink()
    again = git_repo.mj("init", "--extend")
    assert again.code == 0, again
    assert "  .ai/repo/prompts/debug.md" in again.out and "adopted already" in again.out
    assert "Adopt majordomus" not in again.out and "next: git add" not in again.out
    assert hook_lines(again.out) == hook_lines(first.out)  # the hook lines stay for reference
    assert [e["event"] for e in _events(git_repo.root)] == ["layer.adopted"]
    git_repo.commit("adopt")
    clone = tmp_path / "clone"
    git_repo.git("clone", "-q", str(git_repo.root), str(clone))
    cloned = Repo(clone, git_repo.env).mj("init", "--extend")  # a new checkout: its own hatch
    assert cloned.code == 0 and "layer.adopted recorded" in cloned.out, cloned
    [adopted] = _events(clone)
    assert adopted["event"] == "layer.adopted" and adopted["extend"] is True
    assert Repo(clone, git_repo.env).mj("history", "--validate").code == 0
