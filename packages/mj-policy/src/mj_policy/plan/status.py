"""What the plan says, derived on every read: each issue's and milestone's status, the issues
ready to start, the waves of work (Kahn layers) and the graph as Mermaid.

An issue is CANCELLED when marked so, DONE once completed, VERIFY once verified, ACTIVE once
started; otherwise READY when every dependency is DONE and BLOCKED when one is not (a
dependency cycle never becomes ready). A milestone is CANCELLED when marked so, DONE when it
has issues, each DONE or CANCELLED, and every token it requires is covered by its evidence;
ACTIVE when one of its issues is under way or done, READY when one is ready, else BLOCKED.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_policy.plan.model import Item
    from mj_policy.plan.model import Model

ORDER = ("p0", "p1", "p2", "p3")
SETTLED = ("DONE", "CANCELLED")
COLOURS = {"BLOCKED": "#f8d7da", "READY": "#d1e7dd", "ACTIVE": "#cfe2ff"}
COLOURS |= {"VERIFY": "#fff3cd", "DONE": "#e2e3e5", "CANCELLED": "#f8f9fa"}


def issue_statuses(model: Model) -> dict[str, str]:
    found: dict[str, str] = {}
    for ident, item in model.issues.items():
        data = item.data
        if data.get("cancelled"):
            found[ident] = "CANCELLED"
        elif data.get("completed_at"):
            found[ident] = "DONE"
        elif data.get("verified_at"):
            found[ident] = "VERIFY"
        elif data.get("started_at"):
            found[ident] = "ACTIVE"
    for ident, item in model.issues.items():
        if ident not in found:
            done = all(found.get(dep) == "DONE" for dep in item.data["depends_on"])
            found[ident] = "READY" if done else "BLOCKED"
    return found


def blockers(model: Model, statuses: dict[str, str], ident: str) -> list[str]:
    """The dependencies of `ident` that are not DONE, each with its status."""
    deps = model.issues[ident].data["depends_on"]
    return [f"{d} {statuses.get(d, 'undeclared')}" for d in deps if statuses.get(d) != "DONE"]


def milestone_statuses(
    model: Model, statuses: dict[str, str], only: str | None = None
) -> dict[str, str]:
    """Each milestone's status (`only`: that one's, when it is declared)."""
    found: dict[str, str] = {}
    chosen: dict[str, Item | None] = dict(model.milestones)
    if only is not None:
        chosen = {only: model.milestones.get(only)}
    for ident, item in chosen.items():
        if item is None:
            continue
        own = [statuses[i] for i, issue in model.issues.items() if issue.data["milestone"] == ident]
        covered = {e["covers"] for e in item.data.get("evidence") or []}
        required = set(item.data["evidence_required"])
        if item.data.get("cancelled"):
            found[ident] = "CANCELLED"
        elif own and all(s in SETTLED for s in own) and required <= covered:
            found[ident] = "DONE"
        elif any(s in ("ACTIVE", "VERIFY", "DONE") for s in own):
            found[ident] = "ACTIVE"
        elif "READY" in own:
            found[ident] = "READY"
        else:
            found[ident] = "BLOCKED"
    return found


def ranked(model: Model, idents: list[str]) -> list[str]:
    """Issues in the order work would take them: milestone order, priority, id."""

    def key(ident: str) -> tuple[int, int, str]:
        item = model.issues[ident]
        milestone = model.milestones.get(item.data["milestone"])
        order = int(milestone.data["order"]) if milestone is not None else 1 << 30
        return order, ORDER.index(item.data["priority"]), ident

    return sorted(idents, key=key)


def in_milestone(model: Model, milestone: str | None) -> list[Item]:
    return [i for i in model.issues.values() if milestone in (None, i.data["milestone"])]


def waves(model: Model, statuses: dict[str, str], milestone: str | None = None) -> list[list[str]]:
    """Kahn layers of the open issues (a DONE or CANCELLED one is behind us; an edge to an
    issue outside the selection is kept as a wait on it). An issue that is not parallel-safe
    takes a wave of its own. Issues on a cycle are in no wave."""
    open_ = {i.id for i in in_milestone(model, milestone) if statuses[i.id] not in SETTLED}
    waiting = {ident: _waits(model, statuses, ident) for ident in open_}
    placed: set[str] = set()
    out: list[list[str]] = []
    while True:
        layer = [i for i in waiting if i not in placed and waiting[i] <= placed]
        if not layer:
            return out
        together = [i for i in ranked(model, layer) if model.issues[i].data["parallel_safe"]]
        alone = [i for i in ranked(model, layer) if not model.issues[i].data["parallel_safe"]]
        out += [together] if together else []
        out += [[i] for i in alone]
        placed.update(layer)


def _waits(model: Model, statuses: dict[str, str], ident: str) -> set[str]:
    deps = model.issues[ident].data["depends_on"]
    return {d for d in deps if d in model.issues and statuses[d] not in SETTLED}


def mermaid(model: Model, statuses: dict[str, str], milestone: str | None = None) -> str:
    """The dependency graph as a Mermaid flowchart, one class a status."""
    lines = ["flowchart TD"]
    chosen = in_milestone(model, milestone)
    for item in sorted(chosen, key=lambda i: i.id):
        title = str(item.data["title"]).replace('"', "#quot;")
        lines.append(f'  {item.id}["{item.id} {title}<br/>{statuses[item.id]}"]')
    for item in sorted(chosen, key=lambda i: i.id):
        lines += [
            f"  {dep} --> {item.id}" for dep in item.data["depends_on"] if dep in model.issues
        ]
    for status, colour in COLOURS.items():
        members = [i.id for i in chosen if statuses[i.id] == status]
        lines.append(f"  classDef {status.lower()} fill:{colour}")
        if members:
            lines.append(f"  class {','.join(sorted(members))} {status.lower()}")
    return "\n".join(lines) + "\n"
