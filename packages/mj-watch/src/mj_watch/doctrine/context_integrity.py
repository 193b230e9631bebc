"""Doctrine majordomus.context-integrity: the context documents validate as one tree.

The same check as `majordomus context validate` (mj-policy owns it); doctor and watch reach it
through this one function so the two cannot disagree.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.findings import Finding
from mj_policy.context import stages as contextstages

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mj_watch.doctor.facts_view import Facts


REPRODUCE = "majordomus context validate"


def context_integrity(facts: Facts) -> Iterator[Finding]:
    try:
        tree = contextstages.tree(facts.root)
    except MjError as exc:  # the layer itself does not load: layer_integrity reports why
        yield Finding("INFO", "context", ".ai", f"not checked: {exc.message}")
        return
    yield from contextstages.findings(tree)
