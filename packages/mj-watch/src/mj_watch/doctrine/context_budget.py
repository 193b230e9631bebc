"""Doctrine majordomus.context-budget: the always-loaded projection fits its line budget, names
only paths that exist, states no hard-coded count, and no projection carries a rule corpus;
each client fits its budget over all the files it loads, and what reaches it more than once
is reported (`mj_policy.receipt.client_loads`).

Counted and read is generated text only: the region of a region-mode target (the host file's
length is reported as INFO), or the whole of a file-mode target.
"""

from __future__ import annotations

import re
import shlex

from mj_core.findings import Finding
from mj_policy.projection.text import bootstrap_part
from mj_policy.projection.text import named_rule_ids
from mj_policy.projection.text import referenced_paths

from mj_watch.doctrine.projections import seen_all

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mj_watch.doctor.facts_view import Facts
    from mj_watch.doctrine.projections import Seen

# Patterns are source text, compiled by `re` (and cached there) the first time a projection
# with generated text is read: a run with nothing generated compiles none of them.
COUNT_WORDS = (
    "agents?|files?|apps?|commands?|skills?|rules?|profiles?|doctrines?|validators?|hooks?|"
    "checks?|tools?|providers?|steps?"
)
COUNT = rf"(?i)\b[0-9]+\s+({COUNT_WORDS})\b"
COUNT_GREP = rf"[0-9]+ +({COUNT_WORDS})\b"
CORPUS = r"(?im)^#+\s*((task\s+)?lifecycle|rules|finish contract|completion contract|profiles)\b"
CORPUS_GREP = r"^#+ *((task +)?lifecycle|rules|finish contract|completion contract|profiles)\b"
REGION = "sed -n '/majordomus:begin/,/majordomus:end/p' {t} | wc -l"


def lines_counted(seen: Seen) -> int:
    assert seen.verified is not None
    extra = 2 if seen.projection.mode == "region" else 1
    return seen.verified.generated.count("\n") + extra


def context_budget(facts: Facts) -> Iterator[Finding]:
    if facts.layer is None:
        return
    budget = int(facts.layer.policy.data["context"]["always_loaded_budget_lines"])
    for seen in seen_all(facts):
        if seen.verified is None or not seen.verified.generated:
            continue
        if seen.projection.always_loaded:
            yield from _budget(facts, seen, budget)
        if seen.projection.rule_key is not None:
            continue  # a rule's own file: the rule's text, judged as a rule, not as a bootstrap
        if seen.projection.always_loaded:
            yield from _counts(seen)
        yield from _paths(facts, seen)
        yield from _corpus(seen)
        yield from _rule_ids(facts, seen)
    yield from _clients(facts, budget)


def _clients(facts: Facts, budget: int) -> Iterator[Finding]:
    """Each client over what it loads into every conversation, judged as `update --check`
    judges it (`receipt.client_loads`), from what `update` would write now."""
    from mj_policy.receipt import client_loads as clientloads

    told = facts.get("targets")
    described = {t: s["load"] for t, s in (told.get("targets") or {}).items() if "load" in s}
    if described:
        yield from clientloads.findings(described, told.get("delivered") or {}, budget)


def _budget(facts: Facts, seen: Seen, budget: int) -> Iterator[Finding]:
    from mj_policy.projection import budgets

    target = seen.projection.target
    lines = lines_counted(seen)
    quoted = shlex.quote(target)
    told = (facts.get("targets").get("targets") or {}).get(target) or {}
    if seen.projection.mode == "region":
        host = int(told.get("newlines") or 0)
        yield Finding("INFO", "budget", target, f"host file {host} lines; the region is counted")
    reproduce = REGION.format(t=quoted) if seen.projection.mode == "region" else f"wc -l {quoted}"
    size = len(str(told.get("text") or "").encode("utf-8"))
    cap = budgets.limits(seen.projection.providers, budget)
    fits = True
    if lines > cap.lines:
        fits = False
        message = f"{lines} lines, budget {cap.lines} ({cap.lines_from})"
        yield Finding("FAIL", "budget", target, message, reproduce)
    if cap.bytes is not None and size > cap.bytes:
        fits = False
        message = f"{size} bytes, over the {cap.bytes} bytes {seen.projection.provider} reads"
        yield Finding("FAIL", "budget", target, message, f"wc -c {quoted}")
    if fits:
        shown = f"{lines} lines, budget {cap.lines}"
        if cap.bytes is not None:
            shown += f"; {size} of {cap.bytes} bytes"
        yield Finding("OK", "budget", target, shown)


def _counts(seen: Seen) -> Iterator[Finding]:
    assert seen.verified is not None
    target = seen.projection.target
    found = re.search(COUNT, bootstrap_part(seen.verified.generated))
    if found:
        reproduce = f"grep -nEi -e {shlex.quote(COUNT_GREP)} {shlex.quote(target)}"
        message = f"states a hard-coded count ('{found.group(0)}'); counts go stale"
        yield Finding("FAIL", "budget", target, message, reproduce)


def _paths(facts: Facts, seen: Seen) -> Iterator[Finding]:
    assert seen.verified is not None
    target = seen.projection.target
    told = (facts.get("targets").get("targets") or {}).get(target) or {}
    exists = told.get("paths") or {}
    for path in referenced_paths(bootstrap_part(seen.verified.generated)):
        if not exists.get(path):
            message = f"names {path}, which does not exist"
            yield Finding("FAIL", "projection", target, message, f"ls -ld {shlex.quote(path)}")


def _corpus(seen: Seen) -> Iterator[Finding]:
    assert seen.verified is not None
    target = seen.projection.target
    found = re.search(CORPUS, bootstrap_part(seen.verified.generated))
    if found:
        reproduce = f"grep -nEi -e {shlex.quote(CORPUS_GREP)} {shlex.quote(target)}"
        heading = found.group(0).strip()
        message = f"carries a rule corpus (heading '{heading}'); rules live in .ai/repo/rules/"
        yield Finding("FAIL", "projection", target, message, reproduce)


def _rule_ids(facts: Facts, seen: Seen) -> Iterator[Finding]:
    """A projection may name a rule only when the effective rule set provides it."""
    assert seen.verified is not None and facts.layer is not None
    named = named_rule_ids(seen.verified.generated)
    if not named:
        return
    provided = facts.get("targets").get("rules")
    if provided is None:
        return  # an unresolvable rule set is the rules doctrine's finding, not this one
    known = set(provided)
    target = seen.projection.target
    for rule_id in named:
        if rule_id not in known:
            reproduce = f"grep -n -e {shlex.quote(rule_id)} {shlex.quote(target)}"
            message = f"names rule {rule_id}, which the effective rule set does not provide"
            yield Finding("FAIL", "projection", target, message, reproduce)
