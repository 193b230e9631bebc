"""`majordomus context affected` and `context check-sync` (CLI-REFERENCE §2.10): the context
documents against the paths they track, and the projections against what `update` writes."""

from __future__ import annotations

from conftest import Repo
from conftest import failures

NOTES = """---
schema: context/v1
id: ai.repo.notes
kind: context
title: Notes on lib
description: What lib does.
status: active
scope: subtree
providers:
  - "*"
audience:
  - agent
composition: extend
order: 20
tracks:
  - "{track}"
children:
  require_contract: false
  exempt: []
---

# Notes on lib
"""
DOC = ".ai/repo/notes/README.md"


def _notes(repo: Repo, track: str = "lib") -> None:
    repo.write(DOC, NOTES.format(track=track))
    repo.write("lib/a.py", "a = 1\n")
    repo.write("docs/b.md", "b\n")
    assert repo.mj("update").code == 0
    repo.commit("notes on lib")


def _warned(out: str) -> list[str]:
    return [line.split()[2] for line in out.splitlines() if line.startswith("WARN")]


def test_a_changed_tracked_path_warns_its_document_in_each_reading(layer_repo: Repo) -> None:
    _notes(layer_repo)
    quiet = layer_repo.mj("context", "affected")
    assert quiet.code == 0 and "0 tracked path(s) changed since HEAD" in quiet.out, quiet
    layer_repo.write("docs/b.md", "b changed\n")
    assert _warned(layer_repo.mj("context", "affected").out) == []  # not tracked by it
    layer_repo.write("lib/a.py", "a = 2\n")
    result = layer_repo.mj("context", "affected")
    assert result.code == 0 and _warned(result.out) == [DOC], result  # advisory: exit 0
    assert "ai.repo.notes tracks lib/a.py, changed since HEAD" in result.out
    reproduce = result.out.split("[reproduce: ")[1].split("]")[0]
    assert layer_repo.shell(reproduce).out.split() == ["lib/a.py"]
    assert _warned(layer_repo.mj("context", "affected", "--worktree").out) == [DOC]
    assert _warned(layer_repo.mj("context", "affected", "--staged").out) == []
    layer_repo.git("add", "lib/a.py")
    assert _warned(layer_repo.mj("context", "affected", "--staged").out) == [DOC]
    assert _warned(layer_repo.mj("context", "affected", "--worktree").out) == []
    base = layer_repo.git("rev-parse", "HEAD").strip()
    layer_repo.commit("lib moves on")
    assert _warned(layer_repo.mj("context", "affected").out) == []
    assert _warned(layer_repo.mj("context", "affected", "--base", base).out) == [DOC]


def test_a_document_changed_with_its_paths_owes_nothing_and_git_reads_the_pathspec(
    layer_repo: Repo,
) -> None:
    _notes(layer_repo, ":(glob)lib/**/*.py")
    layer_repo.write("lib/deep/c.py", "c = 1\n")
    layer_repo.git("add", "lib/deep/c.py")
    assert _warned(layer_repo.mj("context", "affected").out) == [DOC]
    layer_repo.write(DOC, NOTES.format(track=":(glob)lib/**/*.py") + "Now with c.\n")
    assert _warned(layer_repo.mj("context", "affected").out) == []


def test_bad_input_is_refused_in_one_line(layer_repo: Repo) -> None:
    _notes(layer_repo)
    unknown = layer_repo.mj("context", "affected", "--base", "no-such-ref")
    assert unknown.code == 2 and unknown.err.count("\n") == 1 and not unknown.out, unknown
    both = layer_repo.mj("context", "affected", "--staged", "--worktree")
    assert both.code == 2, both
    layer_repo.write(DOC, NOTES.format(track="lib").replace("order: 20", "order: 20\ncolour: red"))
    invalid = layer_repo.mj("context", "affected")
    assert invalid.code == 10 and "colour" in invalid.out, invalid


def test_check_sync_is_0_in_sync_11_on_drift_10_on_an_invalid_tree(layer_repo: Repo) -> None:
    _notes(layer_repo)
    clean = layer_repo.mj("context", "check-sync")
    assert clean.code == 0 and clean.out.count("in sync with the policy") == 6, clean
    (layer_repo.root / "GEMINI.md").unlink()
    absent = layer_repo.mj("context", "check-sync")
    assert absent.code == 0 and "INFO projection  GEMINI.md — absent" in absent.out, absent
    with (layer_repo.root / "AGENTS.md").open("a", encoding="utf-8") as handle:
        handle.write("a hand edit\n")
    edited = layer_repo.mj("context", "check-sync")
    assert edited.code == 11 and "DRIFT projection  AGENTS.md — edited by hand" in edited.out
    assert layer_repo.mj("update", "--force").code == 0
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    text = policy.read_text(encoding="utf-8")
    policy.write_text(text.replace("default: implementation", "default: debugging"), "utf-8")
    stale = layer_repo.mj("context", "check-sync")
    assert stale.code == 11 and "stale-projection" in stale.out, stale
    layer_repo.write(DOC, NOTES.format(track="lib").replace("order: 20", "order: twenty"))
    invalid = layer_repo.mj("context", "check-sync")
    assert invalid.code == 10 and failures(invalid.out), invalid


def test_check_sync_with_a_base_drifts_a_document_behind_its_paths(layer_repo: Repo) -> None:
    _notes(layer_repo)
    base = layer_repo.git("rev-parse", "HEAD").strip()
    layer_repo.write("lib/a.py", "a = 2\n")
    layer_repo.commit("lib moves on")
    behind = layer_repo.mj("context", "check-sync", "--base", base)
    assert behind.code == 11, behind
    assert f"DRIFT context     {DOC} — out-of-sync: ai.repo.notes tracks lib/a.py" in behind.out
    assert layer_repo.mj("context", "check-sync").code == 0  # without a base: nothing to compare
    layer_repo.write(DOC, NOTES.format(track="lib") + "a is 2 now.\n")
    layer_repo.commit("the notes follow")
    assert layer_repo.mj("context", "check-sync", "--base", base).code == 0
