"""`init --import` is facts | judge | writer twice: `mj-policy instructions | mj-policy
init-facts --import | init-judge | init-write | mj-policy adopt-facts | adopt-judge |
adopt-write | mj-state log`. (The printed pipeline against the command:
`test_pipeline_equivalence.test_init_import_in_a_repository_with_instructions`.)

`init-judge` decides the policy that declares the providers whose files were read;
`adopt-judge` the rules, each checked against the rule format, from the `adopt` fact (what of
the layer already carries each piece, the slugs taken) and never the repository. Each writer
gathers and judges again, so an edited or replayed verdict writes nothing (15).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Repo
from conftest import forged
from importrepo import seed
from importrepo import under_ai

STAGES = "mj-policy instructions | mj-policy init-facts --import | mj-policy init-judge"
CREATED = " | mj-policy init-write | mj-state log | mj-policy adopt-facts"
RULES = ".ai/repo/rules/project"


@pytest.fixture
def imported(git_repo: Repo) -> Repo:
    seed(git_repo)
    return git_repo


def _records(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def _judged(repo: Repo, script: str) -> list[dict[str, object]]:
    done = repo.shell(script)
    assert done.code == 0, done
    return _records(done.out)


def _rules_stream(repo: Repo) -> list[dict[str, object]]:
    """The layer created by init's stages (and its ledger line), then the rules judged."""
    return _judged(repo, STAGES + CREATED + " | mj-policy adopt-judge")


def _verdict(stream: list[dict[str, object]]) -> dict[str, object]:
    (verdict,) = [r for r in stream if r["kind"] == "verdict"]
    return verdict


def test_the_rules_verdict_edited_writes_nothing(imported: Repo) -> None:
    stream = _rules_stream(imported)
    rules = list(_verdict(stream)["rules"])  # type: ignore[call-overload]
    first = rules[0]
    before = under_ai(imported)
    stronger = str(first["text"]).replace("class: advisory", "class: mandatory")
    assert stronger != first["text"]
    for changed in (
        [{**first, "text": stronger}, *rules[1:]],
        [{**first, "file": ".ai/repo/rules/vendor/planted.v1.md"}, *rules[1:]],
        rules[1:],
        [*rules, {**first, "file": f"{RULES}/planted.v1.md"}],
    ):  # fmt: skip
        result = imported.run("mj-policy", "adopt-write", stdin=forged(stream, rules=changed))
        assert result.code == 15 and "nothing was written" in result.err, result
        assert under_ai(imported) == before
    honest = imported.run("mj-policy", "adopt-write", stdin=forged(stream))
    assert honest.code == 0, honest
    assert len(list((imported.root / RULES).glob("*.md"))) == len(rules)
    written = under_ai(imported)
    replay = imported.run("mj-policy", "adopt-write", stdin=forged(stream))
    assert replay.code == 15, replay  # every piece is carried now: no rule to write
    assert under_ai(imported) == written


def test_the_policy_in_an_edited_init_verdict_is_not_written(imported: Repo) -> None:
    stream = _judged(imported, STAGES)
    policy = str(_verdict(stream)["policy"])
    assert "declared by `majordomus init --import`" in policy
    planted = policy + "  - provider: codex\n    target: lib/planted.md\n    mode: file\n"
    result = imported.run("mj-policy", "init-write", stdin=forged(stream, policy=planted))
    assert result.code == 15, result
    assert not (imported.root / ".ai").exists()
    done = imported.run("mj-policy", "init-write", stdin=forged(stream))
    assert done.code == 0, done
    assert (imported.root / ".ai/repo/policy.yaml").read_text() == policy


def test_the_rules_judge_reads_its_fact_and_nothing_else(imported: Repo, tmp_path: Path) -> None:
    """The same stream judged in the repository and in an empty directory gives the same
    records; a piece the fact says is carried gets no rule; no fact is 12."""
    gathered = imported.shell(STAGES + CREATED)
    assert gathered.code == 0, gathered
    inside = imported.run("mj-policy", "adopt-judge", stdin=gathered.out)
    elsewhere = imported.run("mj-policy", "adopt-judge", stdin=gathered.out, cwd=tmp_path)
    assert inside.code == 0 and (inside.out, inside.err) == (elsewhere.out, elsewhere.err)
    records = _records(gathered.out)
    (fact,) = [r for r in records if r.get("fact") == "adopt"]
    pieces = list(fact["pieces"])  # type: ignore[call-overload]
    fact["carried"] = ["already imported: project.elsewhere"] * len(pieces)
    told = "\n".join(json.dumps(r) for r in records) + "\n"
    carried = imported.run("mj-policy", "adopt-judge", stdin=told, cwd=tmp_path)
    assert carried.code == 0 and '"kind":"verdict"' not in carried.out, carried
    assert carried.out.count("already imported: project.elsewhere") == len(pieces)
    result = imported.run("mj-policy", "adopt-judge", stdin=inside.out)
    assert result.code == 12 and "mj-policy adopt-facts" in result.err, result
