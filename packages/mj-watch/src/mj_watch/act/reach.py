"""Which clients this majordomus can hold to the task at the moment of action, through their
own hooks (`mj_policy.hooks.table`): for an adapter, the event that refuses a write outside the
scope (`capture tool`) and the events that hold a turn ending with the contract unmet
(`capture stop`); for a client without one, what its installed version was found to offer and
why it is not enforceable at act time here. `doctrine list` names each; `doctor` says it of
each client the policy projects to that has no adapter, so nobody takes the projection for
enforcement. Pure: the table is this majordomus's own, the facts are doctor's.
"""

from __future__ import annotations

from mj_core.findings import Finding

from mj_watch.doctor.facts_view import Facts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

SUBJECT = "act time"


def reach() -> list[tuple[str, bool, str]]:
    """(provider, enforceable at act time, what says so), adapters first."""
    from mj_policy.hooks.table import ADAPTERS
    from mj_policy.hooks.table import UNSUPPORTED

    out: list[tuple[str, bool, str]] = []
    for provider, adapter in ADAPTERS.items():
        events = adapter["events"]
        tool = ", ".join(e for e, (_, args) in events.items() if args == "tool")
        stop = ", ".join(e for e, (_, args) in events.items() if args.split(" ")[0] == "stop")
        said = (
            f"{tool}: a write outside the active task's scope is refused (capture tool); "
            f"{stop}: a turn that ends with finish --check unmet is held (capture stop); "
            f"wired by `majordomus capture install --provider {provider}` in {adapter['settings']}"
        )
        if adapter.get("needs"):
            said += f"; {adapter['needs']}"
        out.append((provider, True, said))
    for provider, why in UNSUPPORTED.items():
        out.append((provider, False, f"not enforceable at act time: {why}"))
    return out


def listed() -> Iterator[Finding]:
    """`doctrine list`: one INFO a client."""
    for provider, _, said in reach():
        yield Finding("INFO", "doctrine", f"{SUBJECT}: {provider}", said)


def summary() -> Finding:
    """`doctrine status`: which clients enforce at act time and which cannot."""
    found = reach()
    able = [p for p, ok, _ in found if ok]
    unable = [p for p, ok, _ in found if not ok]
    message = f"enforced through the clients' own hooks: {', '.join(able) or 'none'}"
    if unable:
        message += (
            f"; not enforceable at act time: {', '.join(unable)} "
            "(`majordomus doctrine list` says why)"
        )
    return Finding("INFO", "doctrine", SUBJECT, message)


def projected_unenforced(facts: Facts) -> Iterator[Finding]:
    """Doctor: an INFO for each client the policy projects to that has no adapter."""
    from mj_policy.hooks.table import UNSUPPORTED

    targets = facts.facts.get("targets") or {}
    seen: list[str] = []
    for target in (targets.get("targets") or {}).values():
        projection = target.get("projection") if isinstance(target, dict) else None
        provider = projection.get("provider") if isinstance(projection, dict) else None
        if provider in UNSUPPORTED and provider not in seen:
            seen.append(provider)
            said = (
                f"{provider}: projected to, not enforceable at act time — {UNSUPPORTED[provider]}"
            )
            yield Finding("INFO", "hooks", SUBJECT, said)
