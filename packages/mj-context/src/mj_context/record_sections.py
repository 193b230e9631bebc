"""The sections from written records and history: knowledge, decisions, reasoning, checkpoint,
handover, knowledge pointers, files touched in scope, recent history, and the prompt asked
for."""

from __future__ import annotations

from mj_core.paths import within

from mj_context.sections import Excluded
from mj_context.sections import Section
from mj_context.sections import View
from mj_context.sections import age
from mj_context.sections import capped

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

NONE_HERE = (
    "No knowledge candidates await review on this branch. That is an answer, not a gap: "
    "`majordomus knowledge candidates` lists every branch."
)


def lines_of(text: str) -> list[str]:
    """A body's lines without blank ones: in the text form a blank line ends a section."""
    return [line.rstrip() for line in text.split("\n") if line.strip()]


def knowledge(view: View) -> Section | Excluded:
    """The candidates awaiting review whose episode was on this branch, then those no episode
    record assigns, by count and id; their absence is stated, not left out."""
    fact = view.facts.get("knowledge-candidates")
    if fact is None:
        return Excluded("knowledge", "not read for this briefing: `majordomus context` reads it")
    title = (
        "## KNOWLEDGE (candidates awaiting review on this branch; majordomus knowledge candidates)"
    )
    body = []
    listed = (
        (fact["here"], "await review on this branch"),
        (fact["unassigned"], "unassigned (no closed episode names them)"),
    )
    for ids, said in listed:
        if ids:
            more = f" … {len(ids) - view.cap} more" if len(ids) > view.cap else ""
            body.append(f"{len(ids)} {said}: {', '.join(ids[: view.cap])}{more}")
    if fact.get("problem"):
        body.append(f"Not all read: {fact['problem']} — majordomus knowledge check")
    return Section("knowledge", title, body or [NONE_HERE], drop="knowledge")


def decisions(view: View) -> Section | Excluded | None:
    if not view.active or view.task is None:
        return None
    repo_wide = view.context.get("architecture_notes") is True
    if not repo_wide and view.context.get("decisions") is not True:
        return Excluded(
            "decisions",
            f"{view.says('decisions')} and context.architecture_notes: "
            f"{'true' if repo_wide else 'false'}",
        )
    limit = min(int(view.facts["policy"]["recent_decisions"]), view.cap)
    entries = view.facts.get("decisions", {}).get("entries") or []
    if not repo_wide:
        entries = [e for e in entries if e["task"] == view.task.get("id")]
    whose = "for the repository" if repo_wide else "for this task"
    if not entries or limit == 0:
        return Excluded("decisions", f"none recorded {whose}")
    chosen = list(reversed(entries[-limit:]))
    body = [line for e in chosen for line in lines_of(e["text"])]
    return Section(
        "decisions", f"## DECISIONS ({limit} most recent {whose})", body, drop="decisions"
    )


def reasoning(view: View) -> Section | Excluded | None:
    """The task's reasoning records (`state/reasoning/<task>/`), newest first, when it has
    any and the profile sets `context.decisions: true`; absent without a directory of them."""
    fact = view.facts.get("reasoning")
    if fact is None or not view.active or view.task is None:
        return None
    if fact["task_id"] != view.task.get("id") or not fact["total"]:
        return None
    if view.context.get("decisions") is not True:
        return Excluded("reasoning", view.says("decisions"))
    records = fact["records"][: view.cap]
    body = [f"- {r['name']} — {r['title']}" for r in records]
    if fact["total"] > len(records):
        body.append(f"- … {fact['total'] - len(records)} more: ls {fact['directory']}")
    title = f"## REASONING ({fact['total']} record(s) for this task; {fact['directory']}/)"
    return Section("reasoning", title, body, drop="reasoning")


def checkpoint(view: View) -> Section | Excluded:
    fact = view.facts.get("checkpoint", {})
    record = fact.get("record")
    if record is None:
        return Excluded("checkpoint", _absent(fact))
    if view.task and record["task_id"] != view.task.get("id"):
        reason = f"the newest for this worktree and branch belongs to task {record['task_id']}"
        return Excluded("checkpoint", reason)
    return _record_section(view, "checkpoint", "LATEST CHECKPOINT", record)


def handover(view: View) -> Section | Excluded:
    fact = view.facts.get("handover", {})
    record = fact.get("record")
    if record is None:
        return Excluded("handover", _absent(fact))
    return _record_section(view, "handover", "LATEST COMPATIBLE HANDOVER", record)


def _absent(fact: dict[str, Any]) -> str:
    if fact.get("problem"):
        return f"unreadable: {fact['problem']}"
    return "no record for this worktree and branch — absence, not a stale match"


def _record_section(view: View, ident: str, name: str, record: dict[str, Any]) -> Section:
    path = record["path"]
    title = f"## {name} ({path}, {age(view.now, record['created_at'])} ago, {record['label']})"
    body = lines_of(record["body"]) or ["(empty body)"]
    degraded = [f"body omitted for budget — read {path}"]
    return Section(ident, title, body, drop=f"{ident}-body", degraded=degraded)


def pointers(view: View) -> Section | Excluded | None:
    if not view.active:
        return None
    if view.context.get("knowledge") is not True:
        return Excluded(
            "knowledge pointers", f"profile {view.profile} does not set context.knowledge: true"
        )
    fact = view.facts.get("knowledge")
    if fact is None:
        said = "not compiled for this briefing: `majordomus context` shows them"
        return Excluded("knowledge pointers", said)
    if fact.get("problem"):
        return Excluded("knowledge pointers", f"the graph did not build: {fact['problem']}")
    chosen, total = fact["pointers"], int(fact["total"])
    stale = [f"- stale {fact['stale']}"] if fact.get("stale") else []
    if not chosen and not stale:
        why = "no knowledge node lies in the task's scope" if total == 0 else "capped at 0"
        return Excluded("knowledge pointers", f"{why} — run: {fact['more']}")
    body = stale + [
        f"- {p['relation']} {p['node_kind']} {p['id']} {p['path']}"
        + (f" — {p['title']}" if p["title"] else "")
        for p in chosen
    ]
    if total > len(chosen):
        body.append(f"- … {total - len(chosen)} more: {fact['more']}")
    title = f"## KNOWLEDGE POINTERS ({len(chosen)} of {total})"
    return Section("pointers", title, body, drop="pointers")


def files(view: View) -> Section | Excluded | None:
    if not view.active or view.task is None:
        return None
    if view.context.get("relevant_files") is not True:
        return Excluded("files", view.says("relevant_files"))
    claims = [str(s) for s in view.task.get("scope") or []]
    touched = view.facts.get("touched", {}).get("files") or []
    mine = sorted(p for p in touched if any(within(p, c) for c in claims))
    if not mine:
        return Excluded("files", "none touched in scope")
    body = capped(mine, view.cap, "git status")
    return Section("files", f"## FILES TOUCHED IN SCOPE ({len(mine)})", body, drop="files")


def history(view: View) -> Section | Excluded | None:
    depth = view.context.get("recent_history_depth")
    if not view.active or depth is None:
        return None
    if not isinstance(depth, int) or depth <= 0:
        return Excluded("history", view.says("recent_history_depth"))
    fact = view.facts.get("history", {})
    events = (fact.get("events") or [])[-min(depth, view.cap) :]
    if not events:
        return Excluded("history", "the ledger holds no events")
    title = (
        f"## RECENT HISTORY (last {len(events)} of {fact.get('total', 0)} ledger lines; "
        "majordomus history)"
    )
    body = [f"{e['ts']} {e['event']} {e['detail']}".rstrip() for e in reversed(events)]
    return Section("history", title, body, drop="history")


def prompt(view: View) -> Section | Excluded | None:
    fact = view.facts.get("prompt")
    if fact is None:
        return None
    from mj_context import (
        prompt_values as promptvalues,  # only a briefing that asks for a prompt renders one
    )

    if promptvalues.nests_context(fact):
        return Excluded(
            "prompt",
            f"{fact['name']} contains {{{{CONTEXT}}}}: rendering it here "
            "would nest the context in itself",
        )
    text = promptvalues.render(fact, view.facts, context_text=None)
    return Section("prompt", f"## PROMPT {fact['name']}", lines_of(text), drop="prompt")
