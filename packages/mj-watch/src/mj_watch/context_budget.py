"""Doctrine majordomus.context-budget: the always-loaded projection fits its line budget, names
only paths that exist, states no hard-coded count, and no projection carries a rule corpus.

Counted and read is generated text only: the region of a region-mode target (the host file's
length is reported as INFO), or the whole of a file-mode target.
"""

from __future__ import annotations

import re
import shlex

from mj_core.findings import Finding

from mj_watch.projection_checks import seen_all

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mj_watch.facts import Facts
    from mj_watch.projection_checks import Seen

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
_TICKED = r"`([^`\s<>]+)`"
_LINKED = r"\]\(([^)\s]+)\)"
_PATHLIKE = r"[A-Za-z0-9_.][A-Za-z0-9_./-]*"
_SUFFIX = r"\.(md|mdc|ya?ml|toml|json|txt|py|sh|cfg|ini)$"
REGION = "sed -n '/majordomus:begin/,/majordomus:end/p' {t} | wc -l"
RULE_ID = r"\b(?:majordomus|project)(?:\.[a-z0-9][a-z0-9-]*)+(?:@[0-9]+)?\b"
_FILE_SUFFIX = r"\.(md|mdc|ya?ml|json|txt|toml|py|sh)$"


def referenced_paths(text: str) -> list[str]:
    """Repository-relative paths a projection names in backticks or Markdown links."""
    found = []
    for candidate in re.findall(_TICKED, text) + re.findall(_LINKED, text):
        if "://" in candidate or candidate.startswith(("-", "#", "/", "~")):
            continue
        plain = candidate.split("#", 1)[0]
        if re.fullmatch(_PATHLIKE, plain) and ("/" in plain or re.search(_SUFFIX, plain)):
            found.append(plain)
    return list(dict.fromkeys(found))


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
            yield from _counts(seen)
        yield from _paths(facts, seen)
        yield from _corpus(seen)
        yield from _rule_ids(facts, seen)


def _budget(facts: Facts, seen: Seen, budget: int) -> Iterator[Finding]:
    target = seen.projection.target
    lines = lines_counted(seen)
    quoted = shlex.quote(target)
    if seen.projection.mode == "region":
        host = facts.path(target).read_bytes().count(b"\n")
        yield Finding("INFO", "budget", target, f"host file {host} lines; the region is counted")
    reproduce = REGION.format(t=quoted) if seen.projection.mode == "region" else f"wc -l {quoted}"
    if lines > budget:
        yield Finding("FAIL", "budget", target, f"{lines} lines, budget {budget}", reproduce)
    else:
        yield Finding("OK", "budget", target, f"{lines} lines, budget {budget}")


def _counts(seen: Seen) -> Iterator[Finding]:
    assert seen.verified is not None
    target = seen.projection.target
    found = re.search(COUNT, seen.verified.generated)
    if found:
        reproduce = f"grep -nEi {shlex.quote(COUNT_GREP)} {shlex.quote(target)}"
        message = f"states a hard-coded count ('{found.group(0)}'); counts go stale"
        yield Finding("FAIL", "budget", target, message, reproduce)


def _paths(facts: Facts, seen: Seen) -> Iterator[Finding]:
    assert seen.verified is not None
    target = seen.projection.target
    for path in referenced_paths(seen.verified.generated):
        if not facts.path(path.rstrip("/")).exists():
            message = f"names {path}, which does not exist"
            yield Finding("FAIL", "projection", target, message, f"ls -ld {shlex.quote(path)}")


def _corpus(seen: Seen) -> Iterator[Finding]:
    assert seen.verified is not None
    target = seen.projection.target
    found = re.search(CORPUS, seen.verified.generated)
    if found:
        reproduce = f"grep -nEi {shlex.quote(CORPUS_GREP)} {shlex.quote(target)}"
        heading = found.group(0).strip()
        message = f"carries a rule corpus (heading '{heading}'); rules live in .ai/repo/rules/"
        yield Finding("FAIL", "projection", target, message, reproduce)


def named_rule_ids(text: str) -> list[str]:
    """Rule ids (`majordomus.x`, `project.y@1`) a generated text names; file names excluded."""
    found = [
        m.group(0) for m in re.finditer(RULE_ID, text) if not re.search(_FILE_SUFFIX, m.group(0))
    ]
    return list(dict.fromkeys(found))


def _rule_ids(facts: Facts, seen: Seen) -> Iterator[Finding]:
    """A projection may name a rule only when the effective rule set provides it."""
    assert seen.verified is not None and facts.layer is not None
    named = named_rule_ids(seen.verified.generated)
    if not named:
        return
    from mj_core.errors import MjError
    from mj_policy import rules

    try:
        effective = rules.effective(facts.layer)
    except MjError:
        return  # an unresolvable rule set is the rules doctrine's finding, not this one
    known = {r.id for r in effective} | {r.key for r in effective}
    target = seen.projection.target
    for rule_id in named:
        if rule_id not in known:
            reproduce = f"grep -n {shlex.quote(rule_id)} {shlex.quote(target)}"
            message = f"names rule {rule_id}, which the effective rule set does not provide"
            yield Finding("FAIL", "projection", target, message, reproduce)
