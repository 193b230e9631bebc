"""Targets several providers share, and clients that load several targets.

A target two declared providers share (Codex and OpenCode both read AGENTS.md) is written once
for both: one `update` converges, whichever order the policy lists them, `update --check` is
then 0 and doctor agrees. Every pair of the table that shares a target has a golden copy
(tests/golden/providers/shared-<a>+<b>.md; `MJ_REGOLD=1` rewrites it).

A client that also loads other providers' files (GitHub Copilot reads AGENTS.md, CLAUDE.md and
GEMINI.md into one prompt) is held to its budget over all of them, is not told in its own
files what those files tell it, and is reported what still reaches it more than once.
"""

from __future__ import annotations

import itertools
import json
import os

import pytest
from conftest import Repo
from conftest import failures
from conftest import wire
from test_providers import GOLDEN
from test_providers import POLICY
from test_providers import REGION
from test_providers import STAMP
from test_providers import add_rules
from test_providers import add_skills
from test_providers import table

PAIRS = [
    (a, b)
    for a, b in itertools.combinations(table(), 2)
    if table()[a]["target"] == table()[b]["target"]
]


def declare(repo: Repo, entries: list[tuple[str, str]], budget: int = 150) -> None:
    """The policy's projections are exactly `entries` (provider, target), in that order."""
    path = repo.root / POLICY
    text = path.read_text(encoding="utf-8")
    head = text[: text.index("\nprojections:")].replace(
        "always_loaded_budget_lines: 150", f"always_loaded_budget_lines: {budget}"
    )
    block = "".join(f"  - provider: {p}\n    target: {t}\n" for p, t in entries)
    path.write_text(f"{head}\nprojections:\n{block}", encoding="utf-8")


def generated(repo: Repo) -> dict[str, bytes]:
    listed = repo.mj("update", "--check", "--json").out.splitlines()
    records = [json.loads(line) for line in listed if line.startswith("{")]
    found = [r["subject"] for r in records if r.get("category") == "projection"]
    return {t: (repo.root / t).read_bytes() for t in found if (repo.root / t).exists()}


def converges(repo: Repo) -> dict[str, bytes]:
    """One `update` writes; the next writes nothing; `update --check` and doctor pass."""
    first = repo.mj("update")
    assert first.code == 0, first
    again = repo.mj("update")
    assert again.code == 0 and "wrote" not in again.out and "removed" not in again.out, again
    check = repo.mj("update", "--check")
    assert check.code == 0, check
    doctor = repo.mj("doctor")
    assert not [f for f in failures(doctor.out) if f[0] in ("projection", "budget")], doctor.out
    return generated(repo)


@pytest.fixture
def ruled(layer_repo: Repo) -> Repo:
    add_rules(layer_repo)
    add_skills(layer_repo)
    layer_repo.write("src/api/handler.py", "def handle():\n    return None\n")
    layer_repo.write("README.md", "# scratch\n\nAI workers: read AGENTS.md.\n")
    wire(layer_repo)
    return layer_repo


def test_the_table_has_a_shared_target() -> None:
    assert ("codex", "opencode") in PAIRS


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_a_shared_target_converges_in_one_update_as_its_golden_copy(
    ruled: Repo, first: str, second: str
) -> None:
    target = table()[first]["target"]
    declare(ruled, [(first, target), (second, target)])
    one = converges(ruled)
    shown = "".join(
        f"===== {name}\n{REGION.sub('<!-- majordomus:begin -->', STAMP.sub('', text.decode()))}"
        for name, text in one.items()
    )
    golden = GOLDEN / f"shared-{first}+{second}.md"
    if os.environ.get("MJ_REGOLD"):
        golden.write_text(shown, encoding="utf-8")
    assert shown == golden.read_text(encoding="utf-8")
    declare(ruled, [(second, target), (first, target)])  # the other order: the same bytes
    assert converges(ruled) == one


def test_codex_and_opencode_share_agents_md_with_the_rules_in_it(ruled: Repo) -> None:
    """OpenCode loads no nested AGENTS.md, so the shared file carries the scoped rule itself
    (no `src/api/AGENTS.md` half of its readers would miss), and says so."""
    declare(ruled, [("codex", "AGENTS.md")])
    assert ruled.mj("update").code == 0
    assert (ruled.root / "src/api/AGENTS.md").is_file()  # Codex alone: the nested file
    declare(ruled, [("codex", "AGENTS.md"), ("opencode", "AGENTS.md")])
    check = ruled.mj("update", "--check")
    assert ("projection", "src/api/AGENTS.md") in [f[:2] for f in failures(check.out)]
    files = converges(ruled)
    assert not (ruled.root / "src/api/AGENTS.md").exists()  # removed: Codex would read it
    text = files["AGENTS.md"].decode()
    assert len(STAMP.findall(text)) == 1
    assert "Every error an API handler returns" in text and "src/api/AGENTS.md" not in files
    doctor = ruled.mj("doctor")
    assert "INFO delivery    opencode — project.api-errors@1 is scoped to src/api/**" in doctor.out


def test_entries_of_one_target_that_disagree_are_refused_naming_both(ruled: Repo) -> None:
    declare(ruled, [("codex", "AGENTS.md"), ("opencode", "AGENTS.md")])
    path = ruled.root / POLICY
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "    mode: region\n", encoding="utf-8")
    result = ruled.mj("update")
    assert result.code == 10, result
    [line] = result.err.splitlines()
    assert f"{POLICY}:" in line and " and " in line and "`mode`" in line
    assert not (ruled.root / "AGENTS.md").exists()


COPILOT_AND_THE_REST = [
    ("claude-code", "CLAUDE.md"),
    ("codex", "AGENTS.md"),
    ("gemini", "GEMINI.md"),
    ("copilot", ".github/copilot-instructions.md"),
]


def test_copilot_is_not_told_twice_what_the_files_it_also_loads_tell_it(ruled: Repo) -> None:
    declare(ruled, COPILOT_AND_THE_REST)
    files = converges(ruled)
    own = files[".github/copilot-instructions.md"].decode()
    assert "also loads `AGENTS.md`, `CLAUDE.md` and `GEMINI.md`" in own
    assert "Read `README.md` first" not in own  # the bootstrap is theirs
    # the always-loaded rule: AGENTS.md carries it in full, so Copilot's own file goes
    assert ".github/instructions/project-no-print.instructions.md" not in files
    # the scoped rule: Copilot scopes it itself; GEMINI.md imports it for Gemini CLI alone
    assert ".github/instructions/project-api-errors.instructions.md" in files
    gemini = files["GEMINI.md"].decode()
    assert "@.ai/repo/rules/project/api-errors.md" in gemini
    assert "Every error an API handler returns" not in gemini
    doctor = ruled.mj("doctor")
    assert doctor.code == 0, doctor
    said = [line for line in doctor.out.splitlines() if "delivery    copilot" in line]
    assert any("project.no-print@1 reaches GitHub Copilot 3 times" in line for line in said)
    assert not any("project.api-errors" in line for line in said), said


def test_the_order_of_the_policy_changes_no_byte(ruled: Repo) -> None:
    declare(ruled, COPILOT_AND_THE_REST)
    one = converges(ruled)
    declare(ruled, COPILOT_AND_THE_REST[::-1])
    assert converges(ruled) == one


def test_a_client_is_held_to_its_budget_over_every_file_it_loads(ruled: Repo) -> None:
    """Each file fits 60 lines; what Copilot loads together does not. The overrun lies in
    files other providers need, so `update` writes and `update --check` and doctor both WARN
    it alike, naming the client and its files."""
    declare(ruled, COPILOT_AND_THE_REST, budget=60)
    assert ruled.mj("update").code == 0
    check, doctor = ruled.mj("update", "--check"), ruled.mj("doctor")
    assert check.code == 0, check

    def warned(output: str) -> list[str]:
        return [line for line in output.splitlines() if line.startswith("WARN budget")]

    told, judged = warned(check.out), warned(doctor.out)
    assert len(told) == 1 and told == judged, (check.out, doctor.out)
    assert told[0].startswith("WARN budget      copilot — GitHub Copilot loads ")
    assert "over 60" in told[0] and "AGENTS.md" in told[0] and "GEMINI.md" in told[0]
    shown = told[0].split("[reproduce: ")[1].rstrip("]")
    assert int(ruled.shell(shown).out.splitlines()[-1].split()[0]) > 60
