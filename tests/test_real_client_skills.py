"""Proof with the real clients: a skill of `.ai/repo/skills/`, projected by `majordomus update`
to the directory each client loads skills from (share/providers.yaml `skills`), reaches it —
its name and description are in the request the client sends to the recording model server
(`realclients.py`); a draft skill, which is not projected, does not. Claude Code reads
`.claude/skills`; Codex CLI, Gemini CLI and Qwen Code read the shared `.agents/skills`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import realclients
from conftest import Repo
from test_skills import skill

DESCRIPTION = "Audits the changelog against the tagged releases before a release is cut."
QWEN = "  - provider: qwen-code\n    target: QWEN.md\n    mode: file\n"


@pytest.fixture(scope="session")
def prefix() -> Path:
    return realclients.clients()


def _projected(repo: Repo, *, qwen: bool = False) -> None:
    """The skeleton's providers (and Qwen Code), an active skill and a draft, projected."""
    if qwen:
        policy = repo.root / ".ai/repo/policy.yaml"
        text = policy.read_text(encoding="utf-8")
        entry = "  - provider: codex\n"
        assert entry in text
        policy.write_text(text.replace(entry, QWEN + entry, 1), encoding="utf-8")
    repo.write(
        ".ai/repo/skills/changelog-audit/SKILL.md",
        skill("changelog-audit", description=DESCRIPTION),
    )
    repo.write(
        ".ai/repo/skills/half-done/SKILL.md",
        skill("half-done", description="A procedure still being written.", status="draft"),
    )
    assert repo.mj("skills", "check").code == 0
    assert repo.mj("update").code == 0
    repo.commit("a skill, projected")


def _sent(run: Callable[..., object], where: Path, repo: Repo) -> str:
    with realclients.Recorder() as server:
        done = run(where, repo.root, Path(repo.env["HOME"]), server)
    assert getattr(done, "returncode", 1) == 0, getattr(done, "stderr", done)
    assert server.requests, "the client sent nothing to the recording server"
    return "\n".join(server.texts())


def _received(sent: str) -> None:
    """The active skill's name and description were sent; the draft's description was not (its
    directory's name may be: Gemini CLI sends the workspace's folder tree)."""
    assert "changelog-audit" in sent and DESCRIPTION in sent
    assert "still being written" not in sent


def test_claude_code_receives_the_projected_skill(prefix: Path, layer_repo: Repo) -> None:
    _projected(layer_repo)
    assert (layer_repo.root / ".claude/skills/changelog-audit/SKILL.md").is_file()
    sent = _sent(realclients.run_claude, prefix, layer_repo)
    _received(sent)
    assert "half-done" not in sent


@pytest.mark.parametrize("client", ["codex", "gemini"])
def test_codex_and_gemini_receive_the_skill_projected_to_agents_skills(
    prefix: Path, layer_repo: Repo, client: str
) -> None:
    _projected(layer_repo)
    assert (layer_repo.root / ".agents/skills/changelog-audit/SKILL.md").is_file()
    run = {"codex": realclients.run_codex, "gemini": realclients.run_gemini}[client]
    _received(_sent(run, prefix, layer_repo))


def test_qwen_code_receives_the_skill_projected_to_agents_skills(layer_repo: Repo) -> None:
    qwen = realclients.extra("qwen")
    _projected(layer_repo, qwen=True)
    assert (layer_repo.root / "QWEN.md").is_file()
    _received(_sent(realclients.run_qwen, qwen, layer_repo))
