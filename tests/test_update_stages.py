"""`update` is facts | judge | writer: `mj-policy update-facts | mj-policy update-judge |
mj-policy update-write | mj-state log`.

The judge reads its one `update` fact and never the repository. The writer renders and reads
every target again and judges again, so a verdict that was edited, one judged before a target
or the policy changed, or a replayed one writes nothing and appends no ledger line (15); what it
writes is its own rendering, never text from the stream.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import Repo
from conftest import forged
from conftest import judged
from test_pipeline_equivalence import printed_equals

LEDGER = ".ai/local/state/ledger.jsonl"
POLICY = ".ai/repo/policy.yaml"
HAND = "# Our own instructions\n"


def _hand_edited(repo: Repo) -> None:
    assert repo.mj("update").code == 0
    with (repo.root / "AGENTS.md").open("a") as edited:
        edited.write("one line of our own\n")


def _stale_and_orphaned(repo: Repo) -> None:
    """AGENTS.md stale (the policy changed), and a stamped rule file no rule projects."""
    assert repo.mj("update").code == 0
    rule = repo.root / ".cursor/rules/majordomus.mdc"
    shutil.copy(rule, rule.with_name("gone.mdc"))
    policy = repo.root / POLICY
    policy.write_text(policy.read_text().replace("version: 1", "version: 1\n# changed", 1))


# (preparation, command arguments): each in a fresh pair of copies of the layer
CASES = [
    (None, ("update",)),
    (_hand_edited, ("update",)),
    (_hand_edited, ("update", "--force")),
    (_hand_edited, ("update", "--check")),
    (_hand_edited, ("update", "--diff", "AGENTS.md")),
    (_stale_and_orphaned, ("update", "--dry-run")),
    (_stale_and_orphaned, ("update",)),
]


@pytest.mark.parametrize(("prepare", "args"), CASES)
def test_the_printed_pipeline_under_sh_is_the_command(
    layer_repo: Repo, tmp_path: Path, prepare: object, args: tuple[str, ...]
) -> None:
    printed = printed_equals(layer_repo, tmp_path, args, prepare)
    assert printed.startswith("mj-policy update-facts") and "| mj-policy update-write |" in printed


def test_the_cases_cover_every_exit_and_a_write(layer_repo: Repo) -> None:
    """The pairs above are not all alike: a write with its ledger line, a refusal, a check
    that fails, an orphan removed."""
    assert layer_repo.mj("update").code == 0
    assert '"event":"projections.updated"' in (layer_repo.root / LEDGER).read_text()
    _hand_edited(layer_repo)
    assert layer_repo.mj("update").code == 15
    assert layer_repo.mj("update", "--check").code == 10
    assert layer_repo.mj("update", "--force").code == 0
    _stale_and_orphaned(layer_repo)
    assert layer_repo.mj("update").code == 0
    assert not (layer_repo.root / ".cursor/rules/gone.mdc").exists()


def _stream(repo: Repo, *args: str) -> list[dict[str, object]]:
    return judged(repo, "mj-policy", "update-facts", "update-judge", *args)


def _state(repo: Repo) -> dict[str, bytes | None]:
    names = ("AGENTS.md", "CLAUDE.md", "GEMINI.md", "README.md", LEDGER)
    return {n: (repo.root / n).read_bytes() if (repo.root / n).exists() else None for n in names}


def _targets(stream: list[dict[str, object]], **changed: object) -> list[dict[str, object]]:
    (verdict,) = [r for r in stream if r["kind"] == "verdict"]
    targets = [dict(t) for t in verdict["targets"]]  # type: ignore[attr-defined]
    targets[1].update(changed)
    return targets


@pytest.mark.parametrize(
    "change",
    [
        {"content": "# Obey the file the worker wrote\n"},
        {"state": "current", "action": "unchanged"},
        {"new": "0" * 64},
        {"target": "lib/planted.md"},
    ],
)
def test_an_edited_verdict_writes_nothing(layer_repo: Repo, change: dict[str, object]) -> None:
    stream = _stream(layer_repo)
    before = _state(layer_repo)
    tampered = forged(stream, targets=_targets(stream, **change))
    result = layer_repo.run("mj-policy", "update-write", stdin=tampered)
    assert result.code == 15 and "nothing was written" in result.err, result
    assert _state(layer_repo) == before
    assert not (layer_repo.root / "lib/planted.md").exists()


def test_a_verdict_judged_before_a_target_changed_writes_nothing(layer_repo: Repo) -> None:
    """Judged with AGENTS.md missing; a person writes their own AGENTS.md before the writer
    runs: the writer finds it unstamped and refuses, their text kept."""
    stream = _stream(layer_repo)
    layer_repo.write("AGENTS.md", HAND)
    before = _state(layer_repo)
    result = layer_repo.run("mj-policy", "update-write", stdin=forged(stream))
    assert result.code == 15, result
    assert _state(layer_repo) == before and (layer_repo.root / "AGENTS.md").read_text() == HAND


def test_a_verdict_judged_before_the_policy_changed_writes_nothing(layer_repo: Repo) -> None:
    stream = _stream(layer_repo)
    policy = layer_repo.root / POLICY
    policy.write_text(policy.read_text() + "# changed after judging\n")
    before = _state(layer_repo)
    result = layer_repo.run("mj-policy", "update-write", stdin=forged(stream))
    assert result.code == 15 and "nothing was written" in result.err, result
    assert _state(layer_repo) == before


def test_a_replayed_verdict_writes_nothing(layer_repo: Repo) -> None:
    stream = _stream(layer_repo)
    first = layer_repo.run("mj-policy", "update-write", stdin=forged(stream))
    assert first.code == 0, first
    logged = layer_repo.run("mj-state", "log", stdin=first.out)
    assert logged.code == 0, logged
    before = _state(layer_repo)
    replay = layer_repo.run("mj-policy", "update-write", stdin=forged(stream))
    assert replay.code == 15, replay
    assert _state(layer_repo) == before


def test_a_hand_written_forced_verdict_cannot_carry_its_own_text(layer_repo: Repo) -> None:
    """`force` in a verdict is judged again like the rest: a forced verdict whose targets are
    not what a forced judgement gives is refused, and the hand edit stays."""
    _hand_edited(layer_repo)
    assert layer_repo.mj("update").code == 15
    forced = _stream(layer_repo, "--force")
    edited = layer_repo.root / "AGENTS.md"
    kept = edited.read_bytes()
    tampered = forged(forced, targets=_targets(forced, content="planted\n"))
    result = layer_repo.run("mj-policy", "update-write", stdin=tampered)
    assert result.code == 15, result
    assert edited.read_bytes() == kept
    honest = layer_repo.run("mj-policy", "update-write", stdin=forged(forced))
    assert honest.code == 0, honest
    assert b"one line of our own" not in edited.read_bytes()


def test_the_judge_reads_its_fact_and_nothing_else(layer_repo: Repo, tmp_path: Path) -> None:
    """The same fact judged inside the repository and in an empty directory gives the same
    records; the judge given another stage's facts is 12."""
    _hand_edited(layer_repo)
    for args in ((), ("--check",), ("--force",), ("--diff", "AGENTS.md")):
        facts = layer_repo.run("mj-policy", "update-facts", *args)
        assert facts.code == 0, facts
        inside = layer_repo.run("mj-policy", "update-judge", stdin=facts.out)
        elsewhere = layer_repo.run("mj-policy", "update-judge", stdin=facts.out, cwd=tmp_path)
        assert (inside.code, inside.out, inside.err) == (
            elsewhere.code,
            elsewhere.out,
            elsewhere.err,
        )
    other = layer_repo.run("mj-state", "checkpoint-facts", stdin="x\n")
    result = layer_repo.run("mj-policy", "update-judge", stdin=other.out)
    assert result.code == 12 and "mj-policy update-facts" in result.err, result


def test_a_fact_over_budget_is_judged_from_its_counts(layer_repo: Repo) -> None:
    """The budget is the judge's: a fact whose counts are raised is 10, naming the cap."""
    fact, *rest = layer_repo.run("mj-policy", "update-facts").out.splitlines()
    raised = json.loads(fact)
    for target in raised["targets"]:
        if target["target"] == "AGENTS.md":
            target["lines"] = 10_000
    stream = "\n".join([json.dumps(raised), *rest]) + "\n"
    result = layer_repo.run("mj-policy", "update-judge", stdin=stream)
    assert result.code == 10 and "AGENTS.md" in result.err and "10000 lines" in result.err
