"""Proof with the real clients: the text of a project rule reaches the model in each client's
own projection, a path-scoped rule only when the client touches a matching file, and a rule
the budget cannot hold arrives as its pointer, never in full (`realclients.py`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import realclients
from conftest import Repo
from test_providers import POLICY
from test_providers import add_rules

ALWAYS_TEXT = "Library code never calls print(); it uses the logging module."
SCOPED_TEXT = "Every error an API handler returns is an application/problem+json body."
BOOTSTRAP_TEXT = "Read `README.md` first."
PROJECTIONS = """
projections:
  - provider: claude-code
    target: CLAUDE.md
  - provider: codex
    target: AGENTS.md
  - provider: gemini
    target: GEMINI.md
  - provider: qwen-code
    target: QWEN.md
"""


@pytest.fixture(scope="session")
def prefix() -> Path:
    return realclients.clients()


# Copilot CLI alone: it reads AGENTS.md too, where a scoped rule is inlined for Codex
COPILOT = """
projections:
  - provider: copilot
    target: .github/copilot-instructions.md
"""


def _projected(layer_repo: Repo, projections: str) -> Repo:
    path = layer_repo.root / POLICY
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("\nprojections:")] + projections, encoding="utf-8")
    add_rules(layer_repo)
    layer_repo.write("src/api/handler.py", "def handle():\n    return None\n")
    assert layer_repo.mj("update").code == 0
    layer_repo.commit("projections with rules")
    return layer_repo


@pytest.fixture
def projected(layer_repo: Repo) -> Repo:
    return _projected(layer_repo, PROJECTIONS)


@pytest.fixture
def copiloted(layer_repo: Repo) -> Repo:
    return _projected(layer_repo, COPILOT)


def home(repo: Repo) -> Path:
    return Path(repo.env["HOME"])


def test_claude_code_loads_the_always_loaded_rule_and_not_the_scoped_one(
    prefix: Path, projected: Repo
) -> None:
    with realclients.Recorder() as server:
        run = realclients.run_claude(prefix, projected.root, home(projected), server)
    assert run.returncode == 0, run.stderr
    assert server.requests, "the client sent nothing to the recording server"
    sent = "\n".join(server.texts())
    assert BOOTSTRAP_TEXT in sent  # CLAUDE.md
    assert ALWAYS_TEXT in sent  # .claude/rules/project-no-print.md, no front matter
    assert SCOPED_TEXT not in sent  # .claude/rules/project-api-errors.md: paths src/api/**


def test_claude_code_loads_the_scoped_rule_once_it_reads_a_matching_file(
    prefix: Path, projected: Repo
) -> None:
    handler = str(projected.root / "src/api/handler.py")
    with realclients.Recorder(read=handler) as server:
        run = realclients.run_claude(prefix, projected.root, home(projected), server)
    assert run.returncode == 0, run.stderr
    texts = server.texts()
    first_read = next(i for i, t in enumerate(texts) if "tool_result" in t)
    assert not any(SCOPED_TEXT in t for t in texts[:first_read])
    assert any(SCOPED_TEXT in t for t in texts[first_read:])


def test_codex_gets_the_always_loaded_rule_and_the_scoped_one_where_it_applies(
    prefix: Path, projected: Repo
) -> None:
    """At the root Codex reads AGENTS.md: the always-loaded rule in full, the rule scoped to
    src/api/ as its pointer; working in src/api/ it also reads src/api/AGENTS.md, which
    carries that rule in full."""
    with realclients.Recorder() as server:
        run = realclients.run_codex(prefix, projected.root, home(projected), server)
    assert run.returncode == 0, run.stderr
    sent = "\n".join(server.texts())
    assert "AGENTS.md" in sent and BOOTSTRAP_TEXT in sent and ALWAYS_TEXT in sent
    assert SCOPED_TEXT not in sent and "`src/api/AGENTS.md` carries it in full there" in sent
    with realclients.Recorder() as server:
        run = realclients.run_codex(prefix, projected.root / "src/api", home(projected), server)
    assert run.returncode == 0, run.stderr
    sent = "\n".join(server.texts())
    assert ALWAYS_TEXT in sent and SCOPED_TEXT in sent
    assert "Applies to files matching `src/api/**`." in sent


def test_gemini_cli_gets_both_rules_inside_gemini_md(prefix: Path, projected: Repo) -> None:
    with realclients.Recorder() as server:
        run = realclients.run_gemini(prefix, projected.root, home(projected), server)
    assert run.returncode == 0, run.stderr
    sent = "\n".join(server.texts())
    assert BOOTSTRAP_TEXT in sent and ALWAYS_TEXT in sent and SCOPED_TEXT in sent


EXTRA_RUNS = {"qwen": realclients.run_qwen, "copilot": realclients.run_copilot}


def sent_by(client: str, repo: Repo) -> str:
    """What one run of a client beyond the three sent the model, after it exited 0."""
    with realclients.Recorder() as server:
        run = EXTRA_RUNS[client](realclients.extra(client), repo.root, home(repo), server)
    assert run.returncode == 0, run.stderr
    assert server.requests, "the client sent nothing to the recording server"
    return "\n".join(server.texts())


def test_qwen_code_gets_both_rules_inside_qwen_md(projected: Repo) -> None:
    sent = sent_by("qwen", projected)
    assert BOOTSTRAP_TEXT in sent and ALWAYS_TEXT in sent and SCOPED_TEXT in sent


def test_copilot_cli_loads_the_always_loaded_rule_and_not_the_scoped_one(copiloted: Repo) -> None:
    sent = sent_by("copilot", copiloted)
    assert BOOTSTRAP_TEXT in sent  # .github/copilot-instructions.md
    assert ALWAYS_TEXT in sent  # .github/instructions/project-no-print.instructions.md, **
    assert SCOPED_TEXT not in sent  # project-api-errors.instructions.md: applyTo src/api/**


def test_copilot_cli_loads_the_scoped_rule_once_it_views_a_matching_file(
    copiloted: Repo,
) -> None:
    copilot = realclients.extra("copilot")
    handler = str(copiloted.root / "src/api/handler.py")
    with realclients.Recorder(call=("view", {"path": handler})) as server:
        run = realclients.run_copilot(copilot, copiloted.root, home(copiloted), server)
    assert run.returncode == 0, run.stderr
    bodies = [r["body"] for r in server.requests]
    viewed = [any(m.get("role") == "tool" for m in b.get("messages") or []) for b in bodies]
    assert True in viewed, "the client never answered the view call"
    first = viewed.index(True)
    texts = server.texts()
    assert not any(SCOPED_TEXT in t for t in texts[:first])
    assert any(SCOPED_TEXT in t for t in texts[first:])


# Copilot CLI beside the three: it reads AGENTS.md, CLAUDE.md and GEMINI.md into its prompt
BESIDE_THE_THREE = PROJECTIONS.replace(
    "  - provider: qwen-code\n    target: QWEN.md\n",
    "  - provider: copilot\n    target: .github/copilot-instructions.md\n",
)


def test_copilot_cli_gets_what_doctor_says_it_loads_and_no_scoped_rule(layer_repo: Repo) -> None:
    """Beside Claude Code, Codex and Gemini CLI, Copilot CLI is sent each rule and the bootstrap
    as many times as doctor reports it loads them (its own files repeat none of them), and the
    scoped rule not at all: GEMINI.md brings it in for Gemini CLI by an `@path` line, which
    Copilot CLI does not expand."""
    repo = _projected(layer_repo, BESIDE_THE_THREE)
    doctor = repo.mj("doctor")
    said = {}
    for line in doctor.out.splitlines():
        if line.startswith("INFO delivery    copilot — "):
            found = re.search(r"(\S+) reaches GitHub Copilot (\d+) times", line)
            assert found is not None, line
            said[found.group(1)] = int(found.group(2))
    assert said == {"project.no-print@1": 3, "bootstrap": 3}, doctor.out
    sent = sent_by("copilot", repo)
    assert sent.count(ALWAYS_TEXT) == said["project.no-print@1"]
    assert sent.count(BOOTSTRAP_TEXT) == said["bootstrap"]
    assert SCOPED_TEXT not in sent


TARGETS = {"codex": "AGENTS.md", "gemini": "GEMINI.md", "qwen": "QWEN.md"}


PROVIDER = {"codex": "codex", "gemini": "gemini", "qwen": "qwen-code"}


@pytest.mark.parametrize("client", ["codex", "gemini", "qwen"])
def test_a_rule_over_the_budget_reaches_the_model_only_as_its_pointer(
    prefix: Path, layer_repo: Repo, client: str
) -> None:
    """The client's provider alone (beside Codex, Qwen Code would also load AGENTS.md and be
    held to the budget over both files)."""
    target = TARGETS[client]
    alone = f"\nprojections:\n  - provider: {PROVIDER[client]}\n    target: {target}\n"
    projected = _projected(layer_repo, alone)
    bootstrap = (projected.root / target).read_text().split("<!-- majordomus:rules")[0]
    path = projected.root / POLICY
    lines = bootstrap.count("\n") + 6
    path.write_text(
        path.read_text().replace(
            "always_loaded_budget_lines: 150", f"always_loaded_budget_lines: {lines}"
        )
    )
    assert projected.mj("update").code == 0
    runs = {"codex": realclients.run_codex, "gemini": realclients.run_gemini}
    where = prefix if client != "qwen" else realclients.extra("qwen")
    with realclients.Recorder() as server:
        run = runs.get(client, realclients.run_qwen)(where, projected.root, home(projected), server)
    assert run.returncode == 0, run.stderr
    sent = "\n".join(server.texts())
    assert "read `.ai/repo/rules/project/api-errors.md` when working on files matching" in sent
    assert SCOPED_TEXT not in sent and ALWAYS_TEXT not in sent


def test_claude_code_expands_the_agents_md_that_claude_md_imports(
    prefix: Path, projected: Repo
) -> None:
    path = projected.root / POLICY
    text = path.read_text()
    path.write_text(
        text.replace("    target: CLAUDE.md\n", "    target: CLAUDE.md\n    imports: AGENTS.md\n")
    )
    assert projected.mj("update").code == 0
    assert "@AGENTS.md" in (projected.root / "CLAUDE.md").read_text()
    with realclients.Recorder() as server:
        run = realclients.run_claude(prefix, projected.root, home(projected), server)
    assert run.returncode == 0, run.stderr
    sent = "\n".join(server.texts())
    assert BOOTSTRAP_TEXT in sent and ALWAYS_TEXT in sent  # from the imported AGENTS.md
    assert SCOPED_TEXT not in sent  # its own scoped rule file, not loaded: nothing touched
