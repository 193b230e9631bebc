"""Doctor's look at the provider hooks: a hook is inert on failure, so its failures would go
unseen unless someone reads the log they leave (`.ai/local/prompts/failures.log`). A log that is
not empty FAILs, naming how many lines and the first; an empty or absent one says nothing."""

from __future__ import annotations

from mj_core.findings import Finding

from mj_watch.factview import Facts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

LOG = ".ai/local/prompts/failures.log"


def capture_failures(facts: Facts) -> Iterator[Finding]:
    seen = facts.facts.get("capture")  # facts gathered before hooks existed carry none
    count = int(seen.get("failures") or 0) if seen else 0
    if not count:
        return
    yield Finding(
        "FAIL",
        "capture",
        LOG,
        f"{count} hook failure(s) logged, the first: {seen and seen.get('first')} — the hooks kept "
        "quiet; fix the cause, then empty the log",
        reproduce=f"cat {LOG}",
    )
