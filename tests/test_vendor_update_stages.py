"""`rules vendor update` is facts | judge | writer: `mj-policy vendor-update-facts | mj-policy
vendor-update-judge | mj-policy vendor-update-write | mj-state log`.

The judge reads the vendored package's state from its fact. The writer reads the package again
and judges again, so a verdict that forces past a hand edit the judge refused, one judged
before the package moved, or a replayed one swaps nothing (15).
"""

from __future__ import annotations

import shutil

from conftest import Repo
from conftest import forged
from conftest import judged

VENDOR = ".ai/repo/rules/vendor/majordomus"
LEDGER = ".ai/local/state/ledger.jsonl"


def _stream(repo: Repo, *args: str) -> list[dict[str, object]]:
    return judged(repo, "mj-policy", "vendor-update-facts", "vendor-update-judge", *args)


def _package(repo: Repo) -> list[tuple[str, bytes]]:
    base = repo.root / VENDOR
    if not base.exists():
        return []
    return sorted(
        (str(p.relative_to(base)), p.read_bytes()) for p in base.rglob("*") if p.is_file()
    )


def _one_rule(repo: Repo) -> str:
    return sorted((repo.root / VENDOR / "rules").iterdir())[0].name


def test_the_stages_write_what_the_command_writes(layer_repo: Repo) -> None:
    rule = layer_repo.root / VENDOR / "rules" / _one_rule(layer_repo)
    shipped = rule.read_bytes()
    shutil.rmtree(layer_repo.root / VENDOR)
    printed = layer_repo.mj("rules", "vendor", "update", "--pipeline").out.strip()
    assert printed == (
        "mj-policy vendor-update-facts | mj-policy vendor-update-judge"
        " | mj-policy vendor-update-write | mj-state log"
    )
    done = layer_repo.shell(printed)
    assert done.code == 0, done
    assert rule.read_bytes() == shipped
    assert '"event":"rules.vendored"' in (layer_repo.root / LEDGER).read_text()


def test_a_force_the_judge_did_not_see_swaps_nothing(layer_repo: Repo) -> None:
    """A hand edit: the judge without --force refuses, so a worker writes the verdict itself,
    with the force it was not given."""
    rule = layer_repo.root / VENDOR / "rules" / _one_rule(layer_repo)
    rule.write_text(rule.read_text() + "\nedited by hand\n")
    facts = layer_repo.run("mj-policy", "vendor-update-facts")
    refused = layer_repo.run("mj-policy", "vendor-update-judge", stdin=facts.out)
    assert refused.code == 15 and "edited by hand" in refused.err, refused
    forced = _stream(layer_repo, "--force")
    before = _package(layer_repo)
    unforced = layer_repo.run("mj-policy", "vendor-update-write",
                              stdin=forged(forced, force=False))  # fmt: skip
    assert unforced.code == 15, unforced
    assert _package(layer_repo) == before
    assert "rules.vendored" not in (layer_repo.root / LEDGER).read_text()


def test_an_edited_stale_or_replayed_verdict_swaps_nothing(layer_repo: Repo) -> None:
    shutil.rmtree(layer_repo.root / VENDOR)
    stream = _stream(layer_repo)
    before = _package(layer_repo)
    for changed in ({"changed": ["rules/other.md"]}, {"package": ".ai/repo/rules/project"}):
        result = layer_repo.run("mj-policy", "vendor-update-write", stdin=forged(stream, **changed))
        assert result.code == 15 and "nothing was swapped" in result.err, (changed, result)
        assert _package(layer_repo) == before
    assert layer_repo.run("mj-policy", "vendor-update-write", stdin=forged(stream)).code == 0
    after = _package(layer_repo)
    replay = layer_repo.run("mj-policy", "vendor-update-write", stdin=forged(stream))
    assert replay.code == 15, replay
    assert _package(layer_repo) == after


def test_the_judge_without_its_fact_is_12(layer_repo: Repo) -> None:
    other = layer_repo.run("mj-state", "checkpoint-facts", stdin="x\n")
    result = layer_repo.run("mj-policy", "vendor-update-judge", stdin=other.out)
    assert result.code == 12 and "mj-policy vendor-update-facts" in result.err, result
