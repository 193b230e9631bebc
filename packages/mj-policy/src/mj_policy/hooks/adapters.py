"""Provider lifecycle hooks: which provider has an adapter, its shims and settings entries.

`install` writes each shim (`.claude/hooks/majordomus-*` for Claude Code, `.gemini/hooks/…`
for Gemini CLI; 0755) and, when the provider's
settings file does not exist, that file with the entries; it never overwrites. Settings that
exist without the entries are left as they are and the entries to add are returned (the
command prints them and exits 15). `status` names each provider's state: unsupported (no
adapter in this majordomus), unconfigured, named (only part of the wiring is there), wired
(every shim and every entry), verified (wired, and a synthetic prompt payload run through the
installed shim produced its record).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from mj_core.errors import Refused

from mj_policy.hooks.settings import entries
from mj_policy.hooks.settings import named as _named
from mj_policy.hooks.settings import settings_of as _settings
from mj_policy.hooks.settings import settings_text
from mj_policy.hooks.table import ADAPTERS
from mj_policy.hooks.table import MARKER
from mj_policy.hooks.table import UNSUPPORTED

__all__ = ["ADAPTERS", "MARKER", "UNSUPPORTED", "entries", "settings_text"]

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Record = dict[str, Any]

PROGRAM = "majordomus="  # the shim's line naming the executable it runs
ASK_PATH = '"$(command -v majordomus || echo "majordomus (not on PATH)")"'
# the failure-log line a shim writes itself when its majordomus is not there (what
# `mj_state.capture.archive.log_failure` writes for the tool: `<UTC time> <where>: <what>`)
_GONE = (
    '(umask 077 && mkdir -p "$ai/local/prompts" && printf \'%s %s: %s is not there; '
    "`majordomus capture install` writes the shims for the majordomus it runs as\\n' "
    '"$(date -u +%Y-%m-%dT%H:%M:%SZ)" "{where}" "$majordomus" >>"$ai/local/prompts/failures.log")'
)


def shim_text(provider: str, event: str, program: str | None) -> str:
    """The shim: it runs `program` (the majordomus `capture install` ran as; the one PATH
    finds when there was none to name), and when that is not there it logs one line in the
    failure log itself and exits 0, as the tool would."""
    import shlex

    _, args = ADAPTERS[provider]["events"][event]
    call = f"capture {args} --provider {provider}"
    found = shlex.quote(program) if program else ASK_PATH
    where = f"capture {args.split(' ')[0]} --provider {provider}"
    return (
        f"#!/bin/sh\n{MARKER} for {provider} {event} (written by `majordomus capture install`)\n"
        "# inert on failure: majordomus logs to .ai/local/prompts/failures.log and exits 0,\n"
        "# and so does this shim when the majordomus it names is not there\n"
        f"{PROGRAM}{found}\n"
        'if [ -x "$majordomus" ]; then\n'
        f'  exec "$majordomus" {call}\n'
        "fi\n"
        'ai="${0%/*}/../../.ai"\n'
        f'if [ -d "$ai" ]; then {_GONE.format(where=where)}; fi\n'
        "exit 0\n"
    )


def program_of(text: str) -> str | None:
    """The executable a shim names (None: it asks PATH, or it is a shim of an older form)."""
    import shlex

    for line in text.split("\n"):
        if line.startswith(PROGRAM) and line != PROGRAM + ASK_PATH:
            try:
                words = shlex.split(line[len(PROGRAM) :])
            except ValueError:
                return None
            return words[0] if len(words) == 1 else None
    return None


def install(root: Path, provider: str, program: str | None) -> Record:
    """Write the shims (naming `program`) and (when absent) the settings; what is missing is
    returned. A shim of ours (its marker line) is rewritten when it differs — it may name
    another installation; any other file there is refused, nothing overwritten."""
    from mj_core.write import atomic

    adapter = ADAPTERS[provider]
    written = []
    for event, (shim, _) in adapter["events"].items():
        path = root / adapter["hooks"] / shim
        text = shim_text(provider, event, program)
        replace = path.exists()
        if replace:
            have = path.read_text(encoding="utf-8", errors="replace")
            if have == text:
                continue
            if have.split("\n")[1:2] != [text.split("\n")[1]]:
                raise Refused(
                    f"{adapter['hooks']}/{shim}: exists and is not this majordomus's shim; "
                    "nothing was overwritten"
                )
        atomic.create(path, text.encode(), mode=0o755, replace=replace, root=root)
        written.append(f"{adapter['hooks']}/{shim}")
    settings = _settings(root, provider)
    missing: Record = {}
    if settings is None:
        body = settings_text(provider)
        atomic.create(root / adapter["settings"], body.encode(), mode=0o644, root=root)
        written.append(adapter["settings"])
    else:
        named = _named(settings, provider)
        missing = {e: g for e, g in entries(provider).items() if e not in named}
    return {"provider": provider, "written": written, "missing": missing}


def state(root: Path, provider: str) -> tuple[str, str]:
    """(state, why) of one provider, verification aside."""
    if provider in UNSUPPORTED:
        return "unsupported", UNSUPPORTED[provider]
    adapter = ADAPTERS[provider]
    named = _named(_settings(root, provider), provider)
    shims = [
        shim
        for shim, _ in adapter["events"].values()
        if os.access(root / adapter["hooks"] / shim, os.X_OK)
    ]
    total = len(adapter["events"])
    if not named and not shims:
        return "unconfigured", f"no shim and no entry in {adapter['settings']}"
    if len(named) < total or len(shims) < total:
        why = f"{len(shims)} of {total} shims, {len(named)} of {total} settings entries"
        return "named", why
    stale = [s for e, (s, _) in adapter["events"].items() if not _calls(root, provider, e)]
    if stale:
        why = f"{adapter['hooks']}/{stale[0]} does not run the command its event needs; "
        return "named", why + "`majordomus capture install` writes it"
    gone = [p for p in programs(root, provider) if not _runnable(p)]
    if gone:
        why = f"the shims run {gone[0]}, which does not exist; `majordomus capture install` "
        return "named", why + "writes them for the majordomus it runs as"
    needs = f"; {adapter['needs']}" if adapter.get("needs") else ""
    return "wired", f"{total} shims and their entries in {adapter['settings']}{needs}"


def _calls(root: Path, provider: str, event: str) -> bool:
    """Whether the event's shim runs `majordomus capture <its arguments> --provider <it>`."""
    shim, args = ADAPTERS[provider]["events"][event]
    try:
        text = (root / ADAPTERS[provider]["hooks"] / shim).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return f'  exec "$majordomus" capture {args} --provider {provider}\n' in text


def programs(root: Path, provider: str) -> list[str]:
    """The executables the provider's shims name, each once (a shim that asks PATH, none)."""
    adapter = ADAPTERS[provider]
    found: list[str] = []
    for shim, _ in adapter["events"].values():
        try:
            text = (root / adapter["hooks"] / shim).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        program = program_of(text)
        if program is not None and program not in found:
            found.append(program)
    return found


def _runnable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def wiring_digest(root: Path, provider: str) -> str:
    """A digest of the adapter's wiring as it is on disk (each shim's bytes, the events the
    settings name): a verification holds only while this stays the same."""
    import hashlib

    adapter = ADAPTERS[provider]
    digest = hashlib.sha256()
    for shim, _ in adapter["events"].values():
        try:
            digest.update((root / adapter["hooks"] / shim).read_bytes())
        except OSError:
            digest.update(b"-")
        digest.update(b"\0")
    digest.update(",".join(_named(_settings(root, provider), provider)).encode())
    return digest.hexdigest()


def verified_before(root: Path, provider: str, probe: Path) -> bool:
    """Whether a probe through the installed shim left its record for the wiring on disk now
    (read-only: what doctor asks; `capture status` runs a new probe instead)."""
    try:
        recorded = json.loads(probe.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(recorded, dict) and recorded.get("wiring") == wiring_digest(root, provider)


def states(root: Path, probe: Callable[[str], Path]) -> dict[str, Record]:
    """Every provider's state as doctor judges it: wired and probed for this wiring is
    verified (`probe(provider)` is where the probe's record is)."""
    out: dict[str, Record] = {}
    for provider in providers():
        try:
            found, why = state(root, provider)
        except Refused as exc:  # settings that are not JSON: named, and why
            found, why = "named", exc.message
        if found == "wired" and verified_before(root, provider, probe(provider)):
            found, why = "verified", f"{why}; probed through the installed shim"
        out[provider] = {"state": found, "why": why}
    return out


def providers() -> list[str]:
    return [*ADAPTERS, *UNSUPPORTED]


def prompt_shim(root: Path, provider: str) -> Path:
    adapter = ADAPTERS[provider]
    shim = next(s for s, args in adapter["events"].values() if args == "prompt")
    return root / str(adapter["hooks"]) / str(shim)


def briefing(provider: str, text: str) -> str:
    """What the provider's SessionStart hook prints for `text` to reach the model."""
    if ADAPTERS.get(provider, {}).get("briefing") != "additional-context":
        return text
    context = {"hookEventName": "SessionStart", "additionalContext": text}
    return json.dumps({"hookSpecificOutput": context}) + "\n"
