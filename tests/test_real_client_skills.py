"""Proof with the real client: a skill of `.ai/repo/skills/`, projected by `majordomus update`
to `.claude/skills/<id>/SKILL.md`, reaches Claude Code — its name and description are in the
request the client sends to the recording model server (`realclients.py`); a draft skill,
which is not projected, does not."""

from __future__ import annotations

from pathlib import Path

import pytest
import realclients
from conftest import Repo
from test_skills import skill

DESCRIPTION = "Audits the changelog against the tagged releases before a release is cut."


@pytest.fixture(scope="session")
def prefix() -> Path:
    return realclients.clients()


def test_claude_code_receives_the_projected_skill(prefix: Path, layer_repo: Repo) -> None:
    layer_repo.write(
        ".ai/repo/skills/changelog-audit/SKILL.md",
        skill("changelog-audit", description=DESCRIPTION),
    )
    layer_repo.write(
        ".ai/repo/skills/half-done/SKILL.md",
        skill("half-done", description="A procedure still being written.", status="draft"),
    )
    assert layer_repo.mj("skills", "check").code == 0
    assert layer_repo.mj("update").code == 0
    assert (layer_repo.root / ".claude/skills/changelog-audit/SKILL.md").is_file()
    layer_repo.commit("a skill, projected")
    with realclients.Recorder() as server:
        run = realclients.run_claude(prefix, layer_repo.root, Path(layer_repo.env["HOME"]), server)
    assert run.returncode == 0, run.stderr
    assert server.requests, "the client sent nothing to the recording server"
    sent = "\n".join(server.texts())
    assert "changelog-audit" in sent and DESCRIPTION in sent
    assert "half-done" not in sent and "still being written" not in sent
