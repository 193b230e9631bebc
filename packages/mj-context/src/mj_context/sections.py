"""The sections that describe who and where: GIT, TASK, PROFILE, CONTEXT DOCUMENTS, QUESTIONS.

Each builder takes the facts (by name) and returns a `Section` or an `Excluded` naming why the
section is absent. This package is the only reader of a profile's `context` block.
"""

from __future__ import annotations

from mj_core import clock

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Facts = dict[str, dict[str, Any]]


class Section:
    """One section of the briefing: its title and body, and how the budget may shorten it."""

    __slots__ = ("body", "degraded", "drop", "id", "title")

    def __init__(
        self,
        id: str,
        title: str,
        body: list[str],
        drop: str | None = None,
        degraded: list[str] | None = None,
    ) -> None:
        self.id = id
        self.title = title
        self.body = body
        self.drop = drop  # its name in the drop order, when the budget may remove it
        self.degraded = degraded  # the body it keeps when degraded instead of dropped

    def lines(self) -> int:
        return 1 + len(self.body)

    def text(self) -> str:
        return "\n".join([self.title, *self.body]) + "\n"


class Excluded:
    """An item the briefing leaves out, and why."""

    __slots__ = ("item", "reason")

    def __init__(self, item: str, reason: str) -> None:
        self.item = item
        self.reason = reason


class View:
    """The facts with the derived values every builder needs."""

    __slots__ = ("active", "cap", "context", "facts", "now", "profile", "task")

    def __init__(  # noqa: PLR0917 — the dataclass's field order, kept
        self,
        facts: Facts,
        now: int,
        task: dict[str, Any] | None = None,
        active: bool = False,
        profile: str | None = None,
        context: dict[str, Any] | None = None,
        cap: int = 20,
    ) -> None:
        self.facts = facts
        self.now = now
        self.task = task
        self.active = active
        self.profile = profile
        self.context: dict[str, Any] = {} if context is None else context
        self.cap = cap

    @classmethod
    def of(cls, facts: Facts) -> View:
        stamped = clock.parse_iso(str(facts["git"]["generated_at"]))
        now = clock.now() if stamped is None else stamped
        task: dict[str, Any] | None = facts.get("task", {}).get("task")
        prof = facts.get("profile", {})
        return cls(
            facts=facts,
            now=now,
            task=task,
            active=task is not None and task.get("outcome") == "active",
            profile=prof.get("name") if prof.get("exists") else None,
            context=dict((prof.get("data") or {}).get("context") or {}),
            cap=int(facts["policy"]["max_list_items"]),
        )

    def says(self, key: str) -> str:
        return f"profile {self.profile} sets context.{key}: {_yaml(self.context.get(key))}"


def _yaml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "unset" if value is None else str(value)


def age(now: int, stamp: Any) -> str:
    moment = clock.parse_iso(str(stamp))
    if moment is None:
        return "unknown age"
    seconds = max(0, now - moment)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def capped(lines: list[str], cap: int, more: str) -> list[str]:
    if len(lines) <= cap:
        return lines
    return [*lines[:cap], f"… {len(lines) - cap} more: {more}"]


def git(view: View) -> Section:
    g = view.facts["git"]
    label = view.facts.get("task", {}).get("label")
    recorded = str((view.task or {}).get("head") or "")[:7]
    record = f"{label} (recorded head {recorded})" if label else "none (no task record)"
    body = [
        f"repository   {g['repository']}",
        f"branch       {g['branch']}",
        f"head         {g['head'] or '(no commit yet)'}",
        f"working_tree {g['working_tree']}",
        f"task_record  {record}",
    ]
    return Section("git", "## GIT", body)


def task(view: View) -> Section | Excluded:
    t = view.task
    if t is None:
        return Excluded("task", "no task record in this checkout — majordomus start")
    if not view.active:
        return Excluded("task", f"{t.get('id')} is {t.get('outcome')}, not active")
    if view.context.get("task") is False:
        return Excluded("task", view.says("task"))
    interval = _interval(view)
    stamp = t.get("checkpoint_at")
    checkpoint = (
        f"{stamp} ({age(view.now, stamp)} ago, interval {interval})"
        if stamp
        else (f"never (interval {interval})")
    )
    body = [
        f"id           {t.get('id')}",
        f"task         {t.get('task')}",
        f"profile      {t.get('profile')}",
        f"owner        {t.get('owner')}",
        f"outcome      {t.get('outcome')}",
        f"scope        {', '.join(str(s) for s in t.get('scope') or [])}",
        f"started      {t.get('started_at')} ({age(view.now, t.get('started_at'))} ago)",
        f"checkpoint   {checkpoint}",
    ]
    told = view.facts.get("task", {})
    differ = told.get("disagreements") or []
    if differ or told.get("copy") in ("missing", "broken"):
        what = f"departs from it on {', '.join(differ)}" if differ else f"is {told['copy']}"
        body.append(f"record       the ledger's; current.yaml {what} — majordomus check")
    return Section("task", "## TASK", body)


def _interval(view: View) -> str:
    data = view.facts.get("profile", {}).get("data") or {}
    return str(
        data.get("checkpoint_interval") or view.facts["policy"]["checkpoint_interval_default"]
    )


def profile(view: View) -> Section | Excluded | None:
    if not view.active or view.task is None:
        return None
    data = view.facts["profile"].get("data")
    if data is None:
        name = view.task.get("profile")
        return Excluded("profile", f"the task names profile {name}, which does not exist")
    checks = data.get("verification") or {}
    wanted = [
        label
        for key, label in (
            ("verify_command_required", "verify command"),
            ("regression_test_required", "regression test"),
            ("decision_record_required", "decision record"),
        )
        if checks.get(key)
    ]
    body = [
        f"capability   {data.get('capability')}",
        f"effort       {data.get('effort')}",
        f"verbosity    {data.get('verbosity')}",
        f"presentation {data.get('presentation')}",
        f"verification {', '.join(wanted) or '-'}",
        f"output       {', '.join(str(o) for o in data.get('output_contract') or []) or '-'}",
    ]
    return Section("profile", f"## PROFILE {view.profile}", body)


def documents(view: View) -> Section | None:
    chain = view.facts.get("documents", {}).get("chain")
    if not view.active or chain is None:
        return None
    rows = [
        f"{c['path']}  {' → '.join(c['ids']) if c['ids'] else '(none apply)'}"
        if not c.get("problem")
        else f"{c['path']}  does not resolve: {c['problem']}"
        for c in chain
    ]
    title = "## CONTEXT DOCUMENTS (for the scope, root first; majordomus context explain <path>)"
    body = capped(rows, view.cap, "majordomus context resolve <path>")
    return Section("documents", title, body or ["(the task claims no scope)"], drop="documents")


def questions(view: View) -> Section | Excluded | None:
    if not view.active:
        return None
    found = view.facts.get("questions", {}).get("unresolved") or []
    if not found:
        return Excluded("open questions", "none unresolved for this task")
    refuses = "every one refuses finish --outcome completed"
    title = f"## OPEN QUESTIONS ({len(found)} unresolved — {refuses})"
    rows = [f"- {q['question']} ({q['date']})" for q in found]
    return Section("questions", title, capped(rows, view.cap, "majordomus question list"))


def workspaces(view: View) -> Section | Excluded | None:
    """The declared external workspaces of the task's scope (`.ai/repo/workspaces/`)."""
    told = view.facts.get("workspaces")
    if not view.active or told is None:
        return None
    found = told.get("matched") or []
    if not found:
        return Excluded("workspaces", f"none of the {told['declared']} declared is for the scope")
    rows = [f"- {w['id']}: {w['title']} — {w['vendor']}, {w['url']} ({w['status']}; {w['path']})"
            for w in found]  # fmt: skip
    title = "## WORKSPACES (declared for the scope; read only, never a source of this repository)"
    return Section("workspaces", title, capped(rows, view.cap, "ls .ai/repo/workspaces"))
