"""`receipt.client_loads.findings` on described targets written by hand: what a client loads, its
budget over all of it, and what is reported."""

from __future__ import annotations

from typing import Any

from mj_policy.receipt import client_loads as clientloads


def target(providers: list[str], kind: str, lines: int, **forms: str) -> dict[str, Any]:
    return {
        "providers": providers,
        "kind": kind,
        "always_loaded": True,
        "bootstrap": kind == "main",
        "forms": {k.replace("_", "."): v for k, v in forms.items()},
        "lines": lines,
    }


RULES = {
    "p.scoped@1": {"paths": ["src/**"], "always": False, "file": "r/scoped.md", "lines": 9},
    "p.always@1": {"paths": [], "always": True, "file": "r/always.md", "lines": 4},
}
TARGETS = {
    "AGENTS.md": target(["codex"], "main", 40, **{"p_scoped@1": "full", "p_always@1": "full"}),
    "GEMINI.md": target(["gemini"], "main", 30, **{"p_scoped@1": "import", "p_always@1": "full"}),
    ".github/copilot-instructions.md": target(["copilot"], "main", 6),
}


def by_subject(found: list[Any], subject: str) -> list[tuple[str, str, str]]:
    return [(f.level, f.category, f.message) for f in found if f.subject == subject]


def test_copilot_loads_the_files_its_row_names_and_is_held_to_its_budget_over_them() -> None:
    assert clientloads.loaded(TARGETS, "copilot") == list(TARGETS)
    assert clientloads.loaded(TARGETS, "codex") == ["AGENTS.md"]
    found = [f for f in clientloads.findings(TARGETS, RULES, 70) if f.category == "budget"]
    # over the budget through other providers' files, which they need: reported, not refused
    assert [(f.level, f.subject) for f in found] == [("OK", "gemini"), ("WARN", "copilot")]
    budget = found[1]
    assert "76 lines" in budget.message and "AGENTS.md 40, GEMINI.md 30" in budget.message
    assert "70 of them in files written for other providers" in budget.message
    fits = [f for f in clientloads.findings(TARGETS, RULES, 150) if f.category == "budget"]
    assert [(f.level, f.subject) for f in fits] == [("OK", "gemini"), ("OK", "copilot")]


def test_an_imported_rule_counts_for_its_own_client_only() -> None:
    found = clientloads.findings(TARGETS, RULES, 38)
    gemini = by_subject(found, "gemini")
    assert gemini[0][:2] == ("FAIL", "budget") and "39 lines" in gemini[0][2]
    assert "r/scoped.md 9" in gemini[0][2]


def test_what_reaches_a_client_unscoped_or_twice_is_reported() -> None:
    copilot = by_subject(clientloads.findings(TARGETS, RULES, 150), "copilot")
    warns = [m for level, _, m in copilot if level == "WARN"]
    assert warns == [
        "p.scoped@1 is scoped to src/** but reaches GitHub Copilot in every conversation "
        "through AGENTS.md, written for codex, which cannot scope it"
    ]  # GEMINI.md imports it: Copilot does not expand the line
    infos = [m for level, _, m in copilot if level == "INFO"]
    assert (
        "p.always@1 reaches GitHub Copilot 2 times in every conversation: AGENTS.md, GEMINI.md"
        in infos
    )
    codex = by_subject(clientloads.findings(TARGETS, RULES, 150), "codex")
    assert codex == [
        (
            "INFO",
            "delivery",
            "p.scoped@1 is scoped to src/**; Codex CLI cannot scope it, so it reaches every "
            "conversation through AGENTS.md",
        )
    ]
