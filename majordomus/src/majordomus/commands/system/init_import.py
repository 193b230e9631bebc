"""What `majordomus init --import` adopted, for a person: each rule made, where its text came
from and what it reaches, then each part of a file that is not a rule, and why."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]


def text(adopted: list[Record]) -> str:
    rules = [r for r in adopted if r["kind"] == "imported"]
    left = [r for r in adopted if r["kind"] == "not-imported"]
    out = [f"imported ({len(rules)} rule(s))" if rules else "imported: nothing new"]
    for rule in rules:
        came = ", ".join(f"{s['file']}:{s['lines']}" for s in rule["sources"])
        out.append(f"  {rule['path']}  {rule['rule']}  ({_reach(rule)}) ← {came}")
    if left:
        out.append("not imported")
        out += [f"  {r['file']}:{r['lines'][0]}-{r['lines'][1]} — {r['reason']}" for r in left]
    if rules:
        out.append(
            "the instruction files stay as they are until `majordomus update` replaces them "
            "with projections (a file holding text no rule carries is refused, never lost)"
        )
    return "\n".join(out) + "\n"


def _reach(rule: Record) -> str:
    if rule["reach"] == "always":
        return "always loaded"
    if rule["reach"] == "paths":
        return "for " + ", ".join(rule["paths"])
    return "on request"
