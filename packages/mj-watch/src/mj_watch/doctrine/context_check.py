"""The context-integrity and prompt-integrity doctrines, over the `context` fact (`mj-policy
facts`) and the `prompts` fact (`mj-watch facts --for doctor`).

Every problem `context validate` names is a FAIL here, with the same error class and place;
every prompt asset whose front matter or tokens `prompt render` would refuse is a FAIL. A
layer that does not load is the layer check's finding, not these.
"""

from __future__ import annotations

import shlex

from mj_core.errors import MjError
from mj_core.findings import Finding
from mj_policy.prompts import assets as prompts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mj_watch.doctor.facts_view import Facts

VALIDATE = "majordomus context validate"


def context_integrity(facts: Facts) -> Iterator[Finding]:
    told = facts.get("context")
    if told.get("skipped"):
        return
    problems = told.get("problems") or []
    for cls, where, message in problems:
        yield Finding("FAIL", "context", str(where), f"{cls}: {message}", VALIDATE)
    if not problems:
        count = int(told.get("documents") or 0)
        yield Finding("OK", "context", ".ai", f"{count} context document(s) validate as one tree")


def prompt_integrity(facts: Facts) -> Iterator[Finding]:
    if facts.layer is None:
        return
    found = list(prompt_assets(facts))
    yield from found
    if not found:
        count = len(facts.get("prompts").get("assets") or [])
        directory = str(facts.get("prompts").get("directory"))
        yield Finding("OK", "prompts", directory, f"{count} prompt asset(s), every token known")


def prompt_assets(facts: Facts) -> Iterator[Finding]:
    told = facts.get("prompts")
    shown_dir = str(told.get("directory"))
    assets = told.get("assets") or []
    known = [str(a.get("name")) for a in assets]
    for asset in assets:
        name = str(asset.get("name"))
        shown = f"{shown_dir}/{name}.md"
        try:
            if not prompts.named(name):
                raise prompts.unknown(shown, known)
            if asset.get("problem"):
                raise MjError(str(asset["problem"]))
            prompts.from_text(name, str(asset.get("text") or ""), shown)
        except MjError as exc:
            reproduce = f"grep -nF -e '{{{{' {shlex.quote(shown)} || head -n 5 {shlex.quote(shown)}"
            yield Finding("FAIL", "prompts", shown, exc.message, reproduce)
