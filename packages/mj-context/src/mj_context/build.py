"""`mj-context build`: facts in; the briefing's sections, exclusions and budget out.

Sections come in authority order. Over the budget, sections are dropped (or their record bodies
degraded to a reference line) in a fixed order, each drop named under EXCLUDED; GIT, TASK,
PROFILE and OPEN QUESTIONS are never dropped. When nothing is left to drop and the briefing is
still over, a FAIL finding carries the verdict (10) through the stream. Every section's lines
are shown with each credential as `[REDACTED]` (`mj_core.credentials.detect`), line for line.
"""

from __future__ import annotations

from mj_core.english import argparse
from mj_core.errors import ContractUnmet
from mj_core.findings import Finding
from mj_core.stream.stage import Stage

from mj_context import record_sections as records
from mj_context import sections
from mj_context.sections import Excluded
from mj_context.sections import Section
from mj_context.sections import View

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]
    Builder = Callable[[View], Section | Excluded | None]


def _plan_issue(view: View) -> Section | Excluded | None:
    """`plan_sections.issue`, its module loaded only when the plan stage said something."""
    if "plan-brief" not in view.facts:
        return None
    from mj_context import plan_sections as plansections

    return plansections.issue(view)


def _plan_ready(view: View) -> Section | Excluded | None:
    if "plan-brief" not in view.facts:
        return None
    from mj_context import plan_sections as plansections

    return plansections.ready(view)


AUTHORITY: tuple[Builder, ...] = (
    sections.git,
    sections.task,
    sections.profile,
    _plan_issue,
    sections.documents,
    sections.questions,
    sections.workspaces,
    records.knowledge,
    records.decisions,
    records.reasoning,
    records.checkpoint,
    records.handover,
    records.pointers,
    _plan_ready,
    records.files,
    records.history,
    records.prompt,
)
DROP_ORDER = (
    "history",
    "prompt",
    "files",
    "plan-ready",
    "pointers",
    "documents",
    "knowledge",
    "reasoning",
    "decisions",
    "plan-issue",
    "checkpoint-body",
    "handover-body",
)
DROPPED_ITEM = {
    "documents": "context documents",
    "pointers": "knowledge pointers",
    "plan-ready": "ready next",
    "plan-issue": "plan issue body",
    "checkpoint-body": "checkpoint body",
    "handover-body": "handover body",
}
RUN = {  # the command that prints what a drop removed (the pointers': their fact's `more`)
    "documents": "; run: majordomus context resolve <path>",
    "pointers": "; run: majordomus knowledge related",
    "plan-ready": "; run: majordomus plan ready",
}
HEADER_LINES = 3  # title, disclaimer, blank
BUDGET_LINES = 2  # "## BUDGET" and its line


def total(shown: list[Section], excluded: list[Excluded]) -> int:
    """Lines of the text form: header, each section and its blank line, EXCLUDED, BUDGET."""
    count = HEADER_LINES + sum(s.lines() + 1 for s in shown) + BUDGET_LINES
    return count + (len(excluded) + 2 if excluded else 0)


def assemble(facts: dict[str, Record]) -> tuple[View, list[Section], list[Excluded]]:
    view = View.of(facts)
    shown: list[Section] = []
    excluded: list[Excluded] = []
    for builder in AUTHORITY:
        made = builder(view)
        if isinstance(made, Section):
            shown.append(_redacted(made))
        elif isinstance(made, Excluded):
            excluded.append(made)
    return view, shown, excluded


def _redacted(section: Section) -> Section:
    """The section with every credential in its lines as `[REDACTED]`, line for line (the
    budget counts the same lines); the detector loads only for text that may need it."""
    from mj_core.credentials import detect as credentials

    for name in ("body", "degraded"):
        lines = getattr(section, name)
        if lines:
            text = credentials.redact("\n".join(lines), keep_lines=True)[0]
            setattr(section, name, text.split("\n"))
    return section


def fit(
    shown: list[Section], excluded: list[Excluded], limit: int, runs: dict[str, str] | None = None
) -> list[str]:
    """Drop in DROP_ORDER until the text fits `limit`; returns the names dropped, in order.

    A drop is made only when it shortens the text: its EXCLUDED line (and the EXCLUDED heading
    and blank line, for the first) counts against what it saves, so trimming never lengthens
    the briefing.
    """
    dropped: list[str] = []
    reason = f"context budget {limit} lines"
    for name in DROP_ORDER:
        for section in [s for s in shown if s.drop == name]:
            if total(shown, excluded) <= limit:
                return dropped
            if saving(section) <= (1 if excluded else 3):
                continue
            if section.degraded is not None:
                section.body = section.degraded
                section.drop = None
            else:
                shown.remove(section)
            why = reason + (runs or RUN).get(name, "")
            excluded.append(Excluded(DROPPED_ITEM.get(name, name), why))
            dropped.append(name)
    return dropped


def saving(section: Section) -> int:
    """Lines the text loses when `section` is dropped (or degraded to its reference line)."""
    if section.degraded is not None:
        return len(section.body) - len(section.degraded)
    return section.lines() + 1  # its title, its body and the blank line after it


def build(facts_in: Iterable[Record], budget_lines: int | None = None) -> Iterator[Record]:
    facts = {str(r.get("fact")): r for r in facts_in if r.get("kind") == "fact"}
    if "git" not in facts or "policy" not in facts:
        if not facts:
            return  # an empty stream is valid downstream: nothing to build
        raise ContractUnmet(
            "<stdin>: the facts carry no git or policy record — pipe mj-state facts"
        )
    try:
        planned = _plan(facts, budget_lines)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ContractUnmet(
            f"<stdin>: a fact lacks or mistypes {exc} — pipe mj-state facts"
        ) from None
    yield from planned


def _plan(facts: dict[str, Record], budget_lines: int | None) -> list[Record]:
    """Every output record, computed before the first is written (a bad fact stops it whole)."""
    policy_limit = int(facts["policy"]["builder_budget_lines"])
    limit = budget_lines if budget_lines is not None else policy_limit
    view, shown, excluded = assemble(facts)
    told = facts.get("knowledge") or {}
    runs = {**RUN, "pointers": f"; run: {told['more']}"} if told.get("more") else RUN
    dropped = fit(shown, excluded, limit, runs)
    out = [_briefing(view)]
    out += [{"kind": "section", "id": s.id, "title": s.title, "body": s.body} for s in shown]
    out += [{"kind": "excluded", "item": e.item, "reason": e.reason} for e in excluded]
    lines = total(shown, excluded)
    out.append({"kind": "budget", "lines": lines, "limit": limit, "dropped": dropped})
    if lines > limit:
        message = f"{lines} lines over the budget of {limit} with nothing left to drop"
        reproduce = f"majordomus context --budget-lines {limit}"
        out.append(Finding("FAIL", "context-budget", "context", message, reproduce).record())
    return out


def _briefing(view: View) -> Record:
    g = view.facts["git"]
    t = view.task
    task = None
    if t is not None:
        keys = ("id", "task", "profile", "owner", "outcome", "started_at", "checkpoint_at", "scope")
        task = {k: t.get(k) for k in keys}
    return {
        "kind": "briefing",
        "schema": 1,
        "generated_at": g["generated_at"],
        "git": {
            "repository": g["repository"],
            "branch": g["branch"],
            "head": g["head"],
            "working_tree": g["working_tree"],
            "task_record": view.facts.get("task", {}).get("label"),
        },
        "task": task,
        "projections": view.facts["policy"].get("projections") or [],
    }


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of lines")
    return int(text)


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    return build(context.records(options.input), options.budget_lines)


STAGES = {"build": Stage(_run)}
