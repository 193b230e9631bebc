"""`knowledge derive` is facts | judge | writer: `mj-state episode | mj-knowledge derive-facts
| mj-knowledge derive-judge | mj-knowledge derive-write | mj-state log` (and `session close`
ends with the same three).

The judge reads its one `derive` fact and never the repository. The writer gathers the fact
again for the verdict's episodes and judges again, so a verdict whose candidate was edited or
added to, or a replayed one, writes nothing and appends no ledger line (15).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import Repo
from conftest import forged
from conftest import make_env
from test_knowledge_candidates import candidates
from test_knowledge_candidates import episode
from test_pipeline_equivalence import _normal
from test_pipeline_equivalence import _sh
from test_pipeline_equivalence import _snapshot

LEDGER = ".ai/local/state/ledger.jsonl"
CONVERSATION = "User: do it\nAssistant: done"


@pytest.fixture
def decided(layer_repo: Repo) -> tuple[Repo, str]:
    """A closed episode with two decisions, its candidates removed again: `derive` owes two."""
    ident = episode(layer_repo, "use utf-8 only", "refuse tabs")
    for path in candidates(layer_repo):
        path.unlink()
    return layer_repo, ident


@pytest.mark.parametrize("args", [(), ("--dry-run",)])
def test_the_printed_pipeline_under_sh_is_the_command(
    decided: tuple[Repo, str], tmp_path: Path, args: tuple[str, ...]
) -> None:
    repo, ident = decided
    shutil.copytree(repo.root, tmp_path / "piped", symlinks=True)
    piped = Repo(tmp_path / "piped", make_env(tmp_path))
    command = ("knowledge", "derive", "--episode", ident, *args)
    printed = piped.mj(*command, "--json", "--pipeline").out.strip()
    assert "| mj-knowledge derive-facts | mj-knowledge derive-judge" in printed
    direct = repo.mj(*command, "--json")
    code, out, err = _sh(piped, printed, None)
    assert code == direct.code == 0, (printed, direct, err)
    assert _normal(out, piped.root) == _normal(direct.out, repo.root)
    # the copy's own files name the first checkout: compare what the runs wrote
    assert _written(piped) == _written(repo)
    assert len(candidates(repo)) == (0 if args else 2)


def _written(repo: Repo) -> tuple[dict[str, str], list[str]]:
    """The knowledge records, and the ledger's lines past the episode's close (normalised)."""
    files = _snapshot(repo.root)
    knowledge = {k: v for k, v in files.items() if k.startswith(".ai/repo/knowledge/")}
    lines = files[LEDGER].splitlines()
    closed = max(i for i, line in enumerate(lines) if '"session.closed"' in line)
    return knowledge, [_normal(line, repo.root) for line in lines[closed + 1 :]]


def _stream(repo: Repo, ident: str) -> list[dict[str, object]]:
    printed = repo.mj("knowledge", "derive", "--episode", ident, "--pipeline").out.strip()
    judging = printed.split(" | mj-knowledge derive-write")[0]
    done = repo.shell(judging)
    assert done.code == 0, done
    return [json.loads(line) for line in done.out.splitlines()]


def _state(repo: Repo) -> tuple[list[tuple[str, bytes]], bytes]:
    return ([(p.name, p.read_bytes()) for p in candidates(repo)],
            (repo.root / LEDGER).read_bytes())  # fmt: skip


def _verdict(stream: list[dict[str, object]]) -> dict[str, object]:
    (verdict,) = [r for r in stream if r["kind"] == "verdict"]
    return verdict


def test_an_edited_verdict_writes_nothing(decided: tuple[Repo, str]) -> None:
    repo, ident = decided
    stream = _stream(repo, ident)
    first, second = _verdict(stream)["candidates"]  # type: ignore[misc]
    planted = {**first, "id": "planted", "path": ".ai/repo/knowledge/curated/planted.md"}
    said = {**first, "front": {**first["front"], "status": "verified"}}
    for changed in ([said, second], [first], [first, second, planted],
                    [{**first, "body": "# Anything\n"}, second]):  # fmt: skip
        before = _state(repo)
        result = repo.run("mj-knowledge", "derive-write", stdin=forged(stream, candidates=changed))
        assert result.code == 15 and "nothing was written" in result.err, (changed, result)
        assert _state(repo) == before
    assert not (repo.root / ".ai/repo/knowledge/curated/planted.md").exists()


def test_a_replayed_verdict_writes_nothing(decided: tuple[Repo, str]) -> None:
    repo, ident = decided
    stream = _stream(repo, ident)
    first = repo.run("mj-knowledge", "derive-write", stdin=forged(stream))
    assert first.code == 0 and first.out.count('"action":"derived"') == 2, first
    assert repo.run("mj-state", "log", stdin=first.out).code == 0
    before = _state(repo)
    replay = repo.run("mj-knowledge", "derive-write", stdin=forged(stream))
    assert replay.code == 15, replay
    assert _state(repo) == before


def test_the_judge_reads_its_fact_and_nothing_else(
    decided: tuple[Repo, str], tmp_path: Path
) -> None:
    """The same fact judged in the repository and in an empty directory gives the same records;
    a conversation in a decision's words is refused from the fact alone; the judge without its
    fact is 12."""
    repo, ident = decided
    printed = repo.mj("knowledge", "derive", "--episode", ident, "--pipeline").out.strip()
    gathered = repo.shell(printed.split(" | mj-knowledge derive-judge")[0])
    assert gathered.code == 0, gathered
    inside = repo.run("mj-knowledge", "derive-judge", stdin=gathered.out)
    elsewhere = repo.run("mj-knowledge", "derive-judge", stdin=gathered.out, cwd=tmp_path)
    assert inside.code == 0 and (inside.out, inside.err) == (elsewhere.out, elsewhere.err)
    lines = [json.loads(x) for x in gathered.out.splitlines()]
    for record in lines:
        if record.get("fact") == "derive":
            record["episodes"][0]["decisions"][0]["decision"] = CONVERSATION
            record["present"] = []
    told = "\n".join(json.dumps(r) for r in lines) + "\n"
    refused = repo.run("mj-knowledge", "derive-judge", stdin=told, cwd=tmp_path)
    assert refused.code == 0 and '"level":"REFUSE"' in refused.out, refused
    verdict = _verdict([json.loads(x) for x in refused.out.splitlines()])
    assert len(verdict["candidates"]) == 1  # type: ignore[arg-type]  # the other decision
    result = repo.run("mj-knowledge", "derive-judge", stdin=inside.out)
    assert result.code == 12 and "mj-knowledge derive-facts" in result.err, result
