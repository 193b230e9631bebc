"""Doctor's look at the provider hooks: a hook is inert on failure, so its failures would go
unseen unless someone reads the log they leave (`.ai/local/prompts/failures.log`). A log that is
not empty WARNs once, naming how many lines, the first, and the command that shows and
acknowledges them; it never fails doctor by itself (a hook's failure must not refuse the
person's commits). An empty or absent log says nothing."""

from __future__ import annotations

from mj_core.findings import Finding

from mj_watch.factview import Facts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

LOG = ".ai/local/prompts/failures.log"
ACKNOWLEDGE = "majordomus capture acknowledge"


def capture_failures(facts: Facts) -> Iterator[Finding]:
    seen = facts.facts.get("capture")  # facts gathered before hooks existed carry none
    count = int(seen.get("failures") or 0) if seen else 0
    if not count:
        return
    yield Finding(
        "WARN",
        "capture",
        LOG,
        f"{count} hook failure(s) logged, the first: {seen and seen.get('first')} — the hooks "
        f"kept quiet; `{ACKNOWLEDGE}` shows them all, records them and empties the log",
        reproduce=ACKNOWLEDGE,
    )
