"""The briefing keeps its knowledge pointers for the next briefing (CONTEXT-COMMAND): the run
that computed them writes `.ai/local/cache/briefing-pointers.json`, keyed by git's index file
(its size and checksum), both sources files and the selection; a later briefing on the same
index reads them back, and prints exactly what it would have computed. A cache of another
index, or of other inputs, is never used."""

from __future__ import annotations

import json
import re

from conftest import Repo

CACHE = ".ai/local/cache/briefing-pointers.json"
NOTE = "# Lib notes\n\nSee [the policy](../policy.yaml) and [debugging](debug.md).\n"


def _started(repo: Repo) -> Repo:
    repo.write(".ai/repo/prompts/lib.md", NOTE)
    repo.commit("a prompt")
    result = repo.mj("start", "prompts", "--scope", ".ai/repo/prompts")
    assert result.code == 0, result
    return repo


def _briefing(repo: Repo) -> str:
    """`context`'s output with its moments masked (two runs are seconds apart)."""
    result = repo.mj("context")
    assert result.code == 0, result
    masked = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "<moment>", result.out)
    return re.sub(r"\b\d+ ?[smhd]\b ago", "<age> ago", masked)


def test_the_briefing_reads_back_what_it_computed_and_prints_the_same(layer_repo: Repo) -> None:
    repo = _started(layer_repo)
    computed = _briefing(repo)
    kept = repo.root / CACHE
    assert kept.is_file() and "prompt:lib" in kept.read_text()
    assert not list((repo.root / ".ai/local").rglob("knowledge-*"))  # no graph cache written
    assert _briefing(repo) == computed  # read back
    kept.unlink()
    assert _briefing(repo) == computed  # computed again
    assert "## KNOWLEDGE POINTERS (4 of 4)" in computed


def test_a_cache_of_the_same_index_is_read_and_of_another_never(layer_repo: Repo) -> None:
    repo = _started(layer_repo)
    _briefing(repo)
    kept = repo.root / CACHE
    data = json.loads(kept.read_text())
    data["fact"]["pointers"][0]["title"] = "planted title"
    kept.write_text(json.dumps(data))
    assert "planted title" in _briefing(repo)  # this index, these inputs: read back
    repo.write(".ai/repo/prompts/more.md", "# More notes\n")
    repo.git("add", ".ai/repo/prompts/more.md")  # the index changes: its checksum does
    shown = _briefing(repo)
    assert "planted title" not in shown and "prompt:more" in shown
    assert "planted title" not in kept.read_text()  # rewritten by the run that computed it


def test_a_cache_for_another_selection_is_not_used(layer_repo: Repo) -> None:
    repo = _started(layer_repo)
    _briefing(repo)
    kept = repo.root / CACHE
    data = json.loads(kept.read_text())
    data["fact"]["pointers"] = []
    data["material"] = data["material"].replace(".ai/repo/prompts", ".ai/repo/other")
    kept.write_text(json.dumps(data))
    assert "## KNOWLEDGE POINTERS (4 of 4)" in _briefing(repo)
