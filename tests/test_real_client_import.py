"""Proof with the real clients that adopting a repository's instructions loses nothing: each
sentence of the instruction files a client sent its model before `init --import`, it sends
after `update` handed the files over (`realclients.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest
import realclients
from conftest import Repo
from importrepo import FILES
from importrepo import seed
from test_import_meaning import sentences

RUNS = {
    "claude-code": realclients.run_claude,
    "codex": realclients.run_codex,
    "gemini": realclients.run_gemini,
}


@pytest.fixture(scope="session")
def prefix() -> Path:
    return realclients.clients()


def sent(prefix: Path, repo: Repo, client: str) -> str:
    with realclients.Recorder() as server:
        run = RUNS[client](prefix, repo.root, Path(repo.env["HOME"]), server)
    assert run.returncode == 0, run.stderr
    assert server.requests, "the client sent nothing to the recording server"
    return "\n".join(server.texts())


@pytest.mark.parametrize("client", list(RUNS))
def test_what_a_client_was_told_before_the_import_it_is_told_after(
    prefix: Path, git_repo: Repo, client: str
) -> None:
    seed(git_repo)
    written = {s for name, text in FILES.items() if name != "lib/core.py" for s in sentences(text)}
    before = {s for s in written if s in sent(prefix, git_repo, client)}
    assert before, "the client read none of its instruction files"
    assert git_repo.mj("init", "--import").code == 0
    assert git_repo.mj("update").code == 0
    after = sent(prefix, git_repo, client)
    assert sorted(s for s in before if s not in after) == []
