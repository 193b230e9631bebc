"""What each declared client puts into every conversation, over all the files it loads.

A client loads its own always-loaded files (its target, its always-loaded rule files) and the
files of other providers its row names in `also_loads` (share/providers.yaml): GitHub Copilot
puts AGENTS.md, CLAUDE.md and GEMINI.md into the same prompt as its own instructions. Nested
files and scoped rule files are loaded only where they apply and are not counted.

`describe` turns a planned projection and its rendering into plain data (the targets fact
carries it, so doctor judges from facts); `findings` judges that data the one way `update`,
`update --check` and doctor all use: a client whose files together exceed its line budget
FAILs (naming the client and the files), and a rule that reaches a client in every
conversation more than once, or a scoped rule that reaches it unscoped, is reported.
"""

from __future__ import annotations

from mj_core.findings import Finding

from mj_policy import providers

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.projection.render import Projection
    from mj_policy.projection.render import Rendered
    from mj_policy.rules.projections import Delivered

    Record = dict[str, Any]


def kind_of(projection: Projection) -> str:
    if projection.rule is not None:
        return "rule"
    if projection.skill is not None:
        return "skill"
    return "nested" if projection.nested_in is not None else "main"


def describe(projection: Projection, rendered: Rendered | None) -> Record:
    """A planned target as the clients see it: whose it is, what kind, whether its own
    clients load it always, how it carries each rule, and the lines the budget counts."""
    lines = None
    if rendered is not None:
        extra = 2 if projection.mode == "region" else 1
        lines = rendered.generated.count("\n") + extra
    return {
        "providers": list(projection.providers),
        "kind": kind_of(projection),
        "always_loaded": projection.always_loaded,
        "bootstrap": not (projection.imports or projection.points_to),
        "forms": dict(rendered.forms) if rendered is not None else {},
        "lines": lines,
    }


def of_plan(
    root: Path, planned: list[Projection], rendered: dict[str, Rendered | None]
) -> tuple[dict[str, Record], Record]:
    """The targets, described, and the delivered rules of a plan (`rendered` by target)."""
    described = {p.target: describe(p, rendered.get(p.target)) for p in planned}
    rules: list[Delivered] = []
    for projection in planned:
        rules += [projection.rule] if projection.rule is not None else projection.inline
    imported = {
        key for about in described.values() for key, form in about["forms"].items()
        if form == "import"
    }  # fmt: skip
    return described, delivered(root, rules, imported)


def delivered(root: Path, rules: list[Delivered], imported: set[str]) -> Record:
    """Each delivered rule: where it applies, whether always loaded, its file, and for one an
    `@path` line brings in, that file's lines."""
    out: Record = {}
    for item in rules:
        if item.rule.key in out:
            continue
        path = root / item.rule.path
        lines = 0
        if item.rule.key in imported and path.is_file():
            lines = path.read_bytes().count(b"\n")
        out[item.rule.key] = {
            "paths": list(item.paths),
            "always": item.always,
            "file": item.rule.path,
            "lines": lines,
        }
    return out


def loaded(targets: dict[str, Record], client: str) -> list[str]:
    """The targets `client` puts into every conversation, in the order given."""
    known = providers.table().get(client)
    also = known.also_targets if known is not None else ()
    dirs = known.also_rule_dirs if known is not None else ()
    out = []
    for target, about in targets.items():
        kind, always = about["kind"], about["always_loaded"]
        if client in about["providers"]:
            wanted = kind in ("main", "rule") and always
        elif kind == "main":
            wanted = target in also
        else:
            wanted = kind == "rule" and always and any(target.startswith(d + "/") for d in dirs)
        if wanted:
            out.append(target)
    return out


def clients(targets: dict[str, Record]) -> list[str]:
    """The declared providers, in the table's order."""
    named = {n for about in targets.values() if about["kind"] == "main" for n in about["providers"]}
    return [name for name in providers.table() if name in named]


def findings(targets: dict[str, Record], rules: Record, budget_lines: int) -> list[Finding]:
    from mj_policy.receipt import client_report as clientreport

    out: list[Finding] = []
    for client in clients(targets):
        files = loaded(targets, client)
        out += _budget(client, files, targets, rules, budget_lines)
        out += clientreport.reports(client, files, targets, rules)
    return out


def _budget(
    client: str, files: list[str], targets: dict[str, Record], rules: Record, budget: int
) -> list[Finding]:
    """A client loading more than one file (or a rule's file through an `@path` line) is held
    to its line budget over all of them (one file alone is its own file's budget): FAIL when
    its own files exceed it, WARN when the files of other providers it also loads make it
    exceed it (those providers need them; `update` cannot shorten them for this client)."""
    from mj_policy.projection import budgets

    counted = {f: int(targets[f]["lines"] or 0) for f in files}
    own = {f for f in files if client in targets[f]["providers"]}
    for f in sorted(own, key=files.index):
        for key, form in targets[f]["forms"].items():
            if form == "import" and key in rules:
                name = str(rules[key]["file"])
                counted[name] = counted.get(name, 0) + int(rules[key]["lines"])
                own.add(name)
    if len(counted) < 2:
        return []
    cap = budgets.client_limit(client, budget)
    total = sum(counted.values())
    name = providers.display(client)
    if total <= cap.lines:
        return [Finding("OK", "budget", client, f"{name}: {total} lines, budget {cap.lines}")]
    shown = ", ".join(f"{f} {n}" for f, n in counted.items())
    message = (
        f"{name} loads {total} lines into every conversation, over {cap.lines} "
        f"({cap.lines_from}): {shown}"
    )
    import shlex

    listed = " ".join(shlex.quote(f) for f in counted)
    mine = sum(n for f, n in counted.items() if f in own)
    if mine > cap.lines:  # its own files alone: what `update` writes for it must shrink
        return [Finding("FAIL", "budget", client, message, f"wc -l {listed}")]
    message += (
        f" — {total - mine} of them in files written for other providers, which need them; "
        "declare fewer providers or raise the budget"
    )
    return [Finding("WARN", "budget", client, message, f"wc -l {listed}")]
