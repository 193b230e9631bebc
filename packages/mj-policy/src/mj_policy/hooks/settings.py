"""The provider hooks' settings entries: what `capture install` writes into a provider's
settings file, and which of them a settings file on disk carries (the tool hook's entry only
when its matcher lets it run for every tool that writes)."""

from __future__ import annotations

import json

from mj_core.errors import Refused

from mj_policy.hooks.table import ADAPTERS

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]


def entries(provider: str) -> Record:
    """The settings' `hooks` mapping the adapter needs (the tool hook's entry with the
    provider table's matcher: the tools that write)."""
    adapter = ADAPTERS[provider]
    out: Record = {}
    for event, (shim, _) in adapter["events"].items():
        command = adapter["command"].format(shim=shim)
        group: Record = {"hooks": [{"type": "command", "command": command}]}
        if adapter.get("format") == "copilot":  # one entry an event, its command as `bash`
            group = {"type": "command", "bash": command, "timeoutSec": 30}
        matcher = _tool_table(provider).get("matcher") if event == _tool_event(provider) else None
        if matcher:
            group = {"matcher": matcher, **group}
        out[event] = [group]
    return out


def command_of(group: Record) -> str:
    """The command of an entry `entries` makes (Copilot CLI's `bash`, or the first hook's)."""
    return str(group["bash"]) if "bash" in group else str(group["hooks"][0]["command"])


def _tool_table(provider: str) -> Record:
    """The provider table's `hooks.tool` row (`share/providers.yaml`), or {}."""
    from mj_policy import providers

    hooks = providers.get(provider).data.get("hooks") or {}
    return dict(hooks.get("tool") or {})


def _tool_event(provider: str) -> str | None:
    return next((e for e, (_, a) in ADAPTERS[provider]["events"].items() if a == "tool"), None)


def tools_matched(matcher: object, tools: list[str]) -> bool:
    """Whether a settings entry's matcher lets the hook run for each of `tools` (absent, empty
    or `*`: every tool; else a regular expression the whole name must match, as the clients
    read it)."""
    import re

    if matcher in (None, "", "*"):
        return True
    if not isinstance(matcher, str):
        return False
    try:
        return all(re.fullmatch(matcher, tool) for tool in tools)
    except re.error:
        return False


def settings_text(provider: str) -> str:
    """The settings file `install` writes where there is none: the adapter's entries alone."""
    head: Record = {"version": 1} if ADAPTERS[provider].get("format") == "copilot" else {}
    return json.dumps({**head, "hooks": entries(provider)}, indent=2) + "\n"


def settings_of(root: Path, provider: str) -> Record | None:
    path = root / ADAPTERS[provider]["settings"]
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise Refused(f"{ADAPTERS[provider]['settings']}: not readable JSON ({exc})") from None
    return value if isinstance(value, dict) else {}


def named(settings: Record | None, provider: str) -> list[str]:
    """The events whose entry the settings carry."""
    if settings is None or not isinstance(settings.get("hooks"), dict):
        return []
    wanted = entries(provider)
    found = []
    for event, groups in wanted.items():
        command = command_of(groups[0])
        have = settings["hooks"].get(event)
        if event == _tool_event(provider):
            if _runs_for_writes(have, command, provider):
                found.append(event)
            continue
        text = json.dumps(have) if have is not None else ""
        if json.dumps(command) in text:
            found.append(event)
    return found


def _runs_for_writes(have: object, command: str, provider: str) -> bool:
    """Whether some group of the tool event runs `command` for every tool that writes."""
    table = _tool_table(provider)
    tools = [*(table.get("writes") or {}), *(table.get("shell") or {}), *(table.get("patch") or {})]
    for group in have if isinstance(have, list) else []:
        if not isinstance(group, dict) or json.dumps(command) not in json.dumps(group):
            continue
        if tools_matched(group.get("matcher"), tools):
            return True
    return False
