"""The values a prompt asset's tokens take, all from the facts; the substitution is mj-policy's."""

from __future__ import annotations

from mj_policy.prompts import assets as prompts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Facts = dict[str, dict[str, Any]]


def asset(fact: dict[str, Any]) -> prompts.Asset:
    return prompts.Asset(
        name=str(fact["name"]),
        description=str(fact["description"]),
        profile=fact.get("profile"),
        path=str(fact["path"]),
        body=str(fact["body"]),
        body_line=int(fact["body_line"]),
    )


def nests_context(fact: dict[str, Any]) -> bool:
    return "CONTEXT" in asset(fact).blocks()


def inline(facts: Facts) -> dict[str, str]:
    g = facts["git"]
    t = facts.get("task", {}).get("task") or {}
    return {
        "TASK": str(t.get("task", "-")),
        "TASK_ID": str(t.get("id", "-")),
        "PROFILE": str(t.get("profile", "-")),
        "SCOPE": ", ".join(str(s) for s in t.get("scope") or []) or "-",
        "OWNER": str(t.get("owner", "-")),
        "BRANCH": str(g["branch"]),
        "HEAD": str(g["head"] or "-"),
        "WORKING_TREE": str(g["working_tree"]),
        "REPOSITORY": str(g["repository"]),
        "NOW": str(g["generated_at"]),
    }


def blocks(facts: Facts, context_text: str | None) -> dict[str, list[str]]:
    t = facts.get("task", {}).get("task") or {}
    questions = facts.get("questions", {}).get("unresolved") or []
    entries = [
        e for e in facts.get("decisions", {}).get("entries") or [] if e["task"] == t.get("id")
    ]
    limit = int(facts["policy"]["recent_decisions"])
    return {
        "OPEN_QUESTIONS": [f"- {q['question']} ({q['date']})" for q in questions],
        "DECISIONS": [
            line
            for e in reversed(entries[-limit:] if limit else [])
            for line in e["text"].split("\n")
            if line
        ],
        "CHECKPOINT": _body(facts, "checkpoint"),
        "HANDOVER": _body(facts, "handover"),
        "CONTEXT": context_text.rstrip("\n").split("\n") if context_text else [],
    }


def _body(facts: Facts, kind: str) -> list[str]:
    record = facts.get(kind, {}).get("record")
    if record is None:
        return [f"(no {kind} for this worktree and branch)"]
    return [f"({record['path']}, {record['label']})", *record["body"].rstrip("\n").split("\n")]


def render(fact: dict[str, Any], facts: Facts, context_text: str | None) -> str:
    return prompts.render(asset(fact), inline(facts), blocks(facts, context_text))
