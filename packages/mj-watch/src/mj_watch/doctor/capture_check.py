"""Doctor's look at the provider hooks: a hook is inert on failure, so its failures would go
unseen unless someone reads the log they leave (`.ai/local/prompts/failures.log`). A log that is
not empty WARNs once, naming how many lines, the first, and the command that shows and
acknowledges them; it never fails doctor by itself (a hook's failure must not refuse the
person's commits). An empty or absent log says nothing. An adapter whose shims run a
majordomus that is not there, or that is not the file this doctor runs as, WARNs naming it
(an enforcement entry `provider-hook:` FAILs on it: `mj_watch.wiring.check`)."""

from __future__ import annotations

from mj_core.findings import Finding

from mj_watch.doctor.facts_view import Facts

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


def capture_programs(facts: Facts) -> Iterator[Finding]:
    seen = facts.facts.get("capture")
    own = (facts.facts.get("hooks") or {}).get("self")
    for provider, found in ((seen or {}).get("providers") or {}).items():
        why = shim_program(found, own)
        if why is not None:
            again = f"majordomus capture install --provider {provider}"
            said = f"{provider}: {why} — `{again}` writes them for the majordomus it runs as"
            yield Finding("WARN", "capture", f"{provider} shims", said, reproduce=again)


def capture_wiring(facts: Facts) -> Iterator[Finding]:
    """Each adapter `capture install` began and left partly wired (the tool hook's settings
    entry must run its shim for every tool that writes, each shim `majordomus capture <its
    hook> --provider <it>`): a WARN naming the hole; an enforcement entry `provider-hook:`
    FAILs on it (`mj_watch.wiring.check`). A wired adapter says nothing here."""
    seen = facts.facts.get("capture")
    for provider, found in ((seen or {}).get("providers") or {}).items():
        state, why = str(found.get("state")), str(found.get("why"))
        if state == "named":
            again = f"majordomus capture install --provider {provider}"
            said = f"{provider}: only partly wired ({why}) — `{again}` writes what is missing"
            yield Finding("WARN", "capture", f"{provider} hooks", said, reproduce=again)


def shim_program(found: dict[str, object], own: object) -> str | None:
    """Why the adapter's shims run the wrong program (None when they run this one, or it cannot
    be told)."""
    program = found.get("program")
    if not isinstance(program, str):
        return None
    if not found.get("there"):
        return (
            f"the shims run {program}, which does not exist (each hook logs a line, nothing more)"
        )
    if found.get("same") is False:
        return f"the shims run {program}, not the majordomus this doctor is ({own})"
    return None


def provider_wired(told: dict[str, object], name: str, value: str) -> Finding:
    """An enforcement entry `provider-hook:<provider>[:session]` (`mj_watch.wiring.check`): the
    adapter's hooks are installed and a probe through the installed shim proved them (`majordomus
    capture status` runs one), and its shims run this majordomus."""
    provider = value.split(":", 1)[0]
    providers = told.get("providers")
    found = (providers.get(provider) if isinstance(providers, dict) else None) or {}
    state = str(found.get("state") or "unknown")
    wrong = shim_program(found, told.get("self"))
    if state == "verified" and wrong is not None:
        again = f"majordomus capture install --provider {provider}"
        return Finding("FAIL", "wiring", name, f"provider-hook:{provider}: {wrong}", again)
    if state == "verified":
        return Finding("OK", "wiring", name, f"provider-hook:{provider}: verified")
    why = str(found.get("why") or "no adapter for this provider in this majordomus")
    message = f"provider-hook:{provider} is {state}, not verified: {why}"
    return Finding("FAIL", "wiring", name, message, "majordomus capture status")
