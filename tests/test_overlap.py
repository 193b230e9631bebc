"""Overlap across linked worktrees: git is the registry; reported as INFO, never blocking."""

from __future__ import annotations

from pathlib import Path

from conftest import Repo

STATE = ".ai/local/state"


def worktree(repo: Repo, name: str) -> Path:
    path = repo.root.parent / name
    repo.git("worktree", "add", "-q", str(path), "-b", name)
    return path


def start(repo: Repo, where: Path, scope: str) -> str:
    result = repo.run("start", f"work in {where.name}", "--scope", scope, cwd=where)
    assert result.code == 0, result
    return result.out


def overlap_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("INFO overlap")]


def test_claim_containment_both_directions_and_trailing_slashes(layer_repo: Repo) -> None:
    start(layer_repo, layer_repo.root, "lib/auth/")
    wide = worktree(layer_repo, "wide")
    narrow = worktree(layer_repo, "narrow")
    same = worktree(layer_repo, "same")
    lines = overlap_lines(start(layer_repo, wide, "lib"))
    assert any("claims lib/auth — contained by your scope lib" in line for line in lines), lines
    assert all("[reproduce: majordomus check --overlap]" in line for line in lines)
    out = start(layer_repo, narrow, "lib/auth/oauth")
    assert any(
        "claims lib/auth — contains your scope lib/auth/oauth" in x for x in overlap_lines(out)
    )
    assert any("claims lib — contains your scope lib/auth/oauth" in x for x in overlap_lines(out))
    out = start(layer_repo, same, "./lib/auth//")
    assert any("claims lib/auth — the same as your scope lib/auth" in x for x in overlap_lines(out))


def test_sibling_names_sharing_a_prefix_do_not_overlap(layer_repo: Repo) -> None:
    start(layer_repo, layer_repo.root, "lib")
    other = worktree(layer_repo, "other")
    assert overlap_lines(start(layer_repo, other, "library,lib2/x")) == []


def test_touched_files_overlap_even_when_claims_do_not(layer_repo: Repo) -> None:
    start(layer_repo, layer_repo.root, "docs")
    layer_repo.write("lib/committed.py", "c\n")
    layer_repo.commit("outside its claim")
    layer_repo.write("lib/dirty.py", "d\n")
    other = worktree(layer_repo, "other")
    lines = overlap_lines(start(layer_repo, other, "lib"))
    assert len(lines) == 1, lines
    assert (
        "has touched" in lines[0] and "lib/dirty.py" in lines[0] and "lib/committed.py" in lines[0]
    )
    report = layer_repo.run("check", "--overlap", cwd=other)
    assert report.code == 0 and overlap_lines(report.out) == lines


def test_three_worktrees_each_with_an_active_task(layer_repo: Repo) -> None:
    one = worktree(layer_repo, "one")
    two = worktree(layer_repo, "two")
    start(layer_repo, layer_repo.root, "src/core")
    start(layer_repo, one, "src/api")
    out = start(layer_repo, two, "src")
    lines = overlap_lines(out)
    assert any(line.startswith("INFO overlap  ../repo ") or " ../repo " in line for line in lines)
    assert any("claims src/core" in line for line in lines)
    assert any("claims src/api" in line for line in lines)
    check = layer_repo.run("check", "--overlap", cwd=one)
    assert check.code == 0
    assert {("src/core" in x, "src " in x + " ") for x in overlap_lines(check.out)} != set()
    assert any("claims src — contains your scope src/api" in x for x in overlap_lines(check.out))


def test_corrupt_record_in_another_worktree_is_reported_not_fatal(layer_repo: Repo) -> None:
    other = worktree(layer_repo, "other")
    (other / STATE).mkdir(parents=True)
    (other / STATE / "current.yaml").write_text("id: [unclosed\n")
    out = start(layer_repo, layer_repo.root, "lib")
    lines = overlap_lines(out)
    assert len(lines) == 1 and "task record unreadable" in lines[0]
    assert "other/.ai/local/state/current.yaml:" in lines[0]


def test_touched_files_are_matched_on_path_boundaries(layer_repo: Repo) -> None:
    """Git is asked only inside the scope, literally: `lib` is not `library`, `*` is no glob."""
    start(layer_repo, layer_repo.root, "docs")  # HEAD stays at the task's head: status only
    layer_repo.write("library/near.py", "n\n")
    layer_repo.write("lib/inner.py", "i\n")
    layer_repo.write("lib*/star.py", "s\n")
    other = worktree(layer_repo, "other")
    lines = overlap_lines(start(layer_repo, other, "lib"))
    assert len(lines) == 1, lines
    assert "has touched lib/inner.py inside your scope" in lines[0]
    assert "library" not in lines[0] and "star" not in lines[0]
