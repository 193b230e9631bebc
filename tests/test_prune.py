"""`checkpoint --prune` and `handover --prune`: a store over its cap brought back under, as the
doctor's retention FAIL says, by moving its oldest records into a dated archive."""

from __future__ import annotations

import json
import re
import stat

from conftest import Repo

STATE = ".ai/local/state"
HANDOVER = "# Objective\nShip.\n# Current State\nHalf.\n# Next Action\nThe rest.\n"


def _cap(repo: Repo, section: str, cap: int) -> None:
    policy = repo.root / ".ai/repo/policy.yaml"
    text = policy.read_text()
    pattern = rf"(\n{section}:\n(?:  .*\n)*?  retention_max_files: )\d+"
    text, count = re.subn(pattern, rf"\g<1>{cap}", text)
    assert count == 1
    policy.write_text(text)
    repo.commit("cap")


def _ledger(repo: Repo) -> list[dict[str, object]]:
    text = (repo.root / STATE / "ledger.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def test_checkpoint_prune_moves_the_oldest_over_the_cap(layer_repo: Repo) -> None:
    _cap(layer_repo, "checkpoint", 2)
    assert layer_repo.mj("start", "prune", "--scope", "lib").code == 0
    store = layer_repo.root / STATE / "checkpoints"
    for number in range(4):
        assert layer_repo.mj("checkpoint", stdin=f"note {number}\n").code == 0
    names = sorted(p.name for p in store.iterdir())
    assert len(names) == 4
    contents = {name: (store / name).read_bytes() for name in names}
    doctor = layer_repo.mj("doctor")
    assert (
        doctor.code == 10 and "`majordomus checkpoint --prune` brings it back under" in doctor.out
    )

    lines = len(_ledger(layer_repo))
    dry = layer_repo.mj("checkpoint", "--prune", "--dry-run")
    assert dry.code == 0 and "would move 2" in dry.out and names[0] in dry.out, dry
    assert sorted(p.name for p in store.iterdir()) == names  # nothing moved
    assert len(_ledger(layer_repo)) == lines and not (layer_repo.root / STATE / "archive").exists()

    done = layer_repo.mj("checkpoint", "--prune", "--json")
    assert done.code == 0, done
    record = json.loads(done.out.splitlines()[0])
    assert record["moved"] == [f"{STATE}/checkpoints/{name}" for name in names[:2]]
    assert sorted(p.name for p in store.iterdir()) == names[2:]  # the newest stay
    archive = layer_repo.root / record["archive"]
    assert re.fullmatch(rf"{STATE}/archive/pruned-\d{{8}}T\d{{6}}Z/checkpoints", record["archive"])
    assert {p.name: p.read_bytes() for p in archive.iterdir()} == {
        n: contents[n] for n in names[:2]
    }
    assert stat.S_IMODE(archive.parent.stat().st_mode) == 0o700
    last = _ledger(layer_repo)[-1]
    assert (last["event"], last["moved"], last["archive"]) == (
        "records.pruned",
        2,
        record["archive"],
    )
    assert len(_ledger(layer_repo)) == lines + 1
    assert "checkpoints/ — 2 files, cap 2" in layer_repo.mj("doctor").out
    assert layer_repo.mj("history", "--validate").code == 0
    again = layer_repo.mj("checkpoint", "--prune")
    assert again.code == 0 and "nothing to move" in again.out
    assert len(_ledger(layer_repo)) == lines + 1  # nothing moved: nothing recorded


def test_handover_prune_and_its_usage(layer_repo: Repo) -> None:
    _cap(layer_repo, "handover", 1)
    for _ in range(3):
        assert layer_repo.mj("handover", "--no-task", stdin=HANDOVER).code == 0
    done = layer_repo.mj("handover", "--prune")
    assert done.code == 0 and "moved 2" in done.out, done
    assert len(list((layer_repo.root / STATE / "handovers").iterdir())) == 1
    assert layer_repo.mj("handover", "--resolve").code == 0  # the newest still resolves
    for args in (("handover", "--prune", "--resolve"), ("checkpoint", "--dry-run")):
        refused = layer_repo.mj(*args)
        assert refused.code == 2 and refused.err.count("\n") == 1, refused
