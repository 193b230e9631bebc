"""Clones racing over the git protocol (`git daemon` on 127.0.0.1): 8 clones × 30 rounds of
`plan start` on one READY issue each round — exactly one winner a round, the 7 others refused
(15) naming it, one claim ref per issue, and no ledger line lost in any clone; 4 clones
proposing an ADR at once get 4 distinct numbers."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import Repo
from conftest import exe
from remoteworld import Remote
from remoteworld import clone
from remoteworld import clone_id
from remoteworld import ledger
from remoteworld import seed

CLONES = 8
ROUNDS = 30


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Remote]:
    made = Remote("daemon", tmp_path / "remote")
    yield made
    made.close()


def _race(repos: list[Repo], *args: str) -> list[subprocess.CompletedProcess[str]]:
    def one(repo: Repo) -> subprocess.CompletedProcess[str]:
        return subprocess.run([exe("majordomus"), *args], cwd=repo.root, env=repo.env,
                              capture_output=True, text=True, check=False, timeout=120)  # fmt: skip

    with ThreadPoolExecutor(max_workers=len(repos)) as pool:
        return list(pool.map(one, repos))


def test_of_eight_clones_racing_plan_start_exactly_one_wins_each_round(
    daemon: Remote, tmp_path: Path
) -> None:
    seed(tmp_path, daemon.url(), issues=ROUNDS)
    repos = [clone(daemon.url(), tmp_path / f"c{n}", tmp_path / f"home{n}") for n in range(CLONES)]
    wins: dict[str, int] = {}
    for number in range(1, ROUNDS + 1):
        ident = f"I{number:04d}"
        done = _race(repos, "plan", "start", ident)
        codes = sorted(d.returncode for d in done)
        assert codes == [0] + [15] * (CLONES - 1), (ident, [(d.returncode, d.stderr) for d in done])
        winner = repos[[d.returncode for d in done].index(0)]
        holder = f"held by clone {clone_id(winner)} (branch main, since "
        assert all(holder in d.stderr for d in done if d.returncode == 15), (
            ident,
            [d.stderr for d in done],
        )
        wins[clone_id(winner)] = wins.get(clone_id(winner), 0) + 1
    claims = [r for r in daemon.refs() if r.startswith("refs/majordomus/claims/")]
    assert sorted(claims) == [
        f"refs/majordomus/claims/issue/I{n:04d}" for n in range(1, ROUNDS + 1)
    ]
    for repo in repos:
        lines = ledger(repo)
        started = [json.loads(x)["issue"] for x in lines if '"plan.started"' in x]
        assert len(started) == wins.get(clone_id(repo), 0) == len(set(started))
        holders = [daemon.claim(f"refs/majordomus/claims/issue/{i}")["who"] for i in started]
        assert all(h["clone"] == clone_id(repo) for h in holders)  # type: ignore[index]
        assert repo.mj("history", "--validate").code == 0
    assert sum(wins.values()) == ROUNDS
    for repo, synced in zip(repos, _race(repos, "sync"), strict=True):
        assert synced.returncode == 0, synced.stderr
        assert daemon.published(clone_id(repo)) == ledger(repo)


def test_four_clones_proposing_at_once_get_four_distinct_numbers(
    daemon: Remote, tmp_path: Path
) -> None:
    seed(tmp_path, daemon.url())
    repos = [clone(daemon.url(), tmp_path / f"c{n}", tmp_path / f"home{n}") for n in range(4)]
    done = _race(repos, "adr", "propose", "Use one parser")
    assert [d.returncode for d in done] == [0] * 4, [d.stderr for d in done]
    numbers = sorted(int(d.stdout.split("adr-", 1)[1][:4]) for d in done)
    assert numbers == [1, 2, 3, 4], [d.stdout for d in done]
    assert sorted(r for r in daemon.refs() if "/adr/" in r) == [
        f"refs/majordomus/adr/{n}" for n in (1, 2, 3, 4)
    ]
    for repo in repos:
        proposed = [json.loads(x) for x in ledger(repo) if '"adr.proposed"' in x]
        assert len(proposed) == 1 and proposed[0]["claim"]["shared"] is True
