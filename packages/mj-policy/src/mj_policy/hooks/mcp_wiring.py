"""The MCP client configurations that start `majordomus mcp`: what `mcp install` adds
(`mj_policy.mcp_install` judges and writes it), and the `mcp` fact doctor judges.

Each provider whose row in `share/providers.yaml` has an `mcp` block reads its project's MCP
servers from one file (`config`), JSON or TOML, under one key (`table`). The server entry is
the command `majordomus` with the arguments `mcp`, and what the client's row adds (`entry`:
Gemini CLI's `trust`, without which a headless run leaves the tools out). `install` prints that
entry, or with `--write` adds it to the file (created when absent) and never replaces what
is there: an entry of that name that differs is refused (15), one that runs the server but
lacks a key the row adds is kept and the key named (`lacks`), a file that does not parse is
a contract failure (10) naming it. What else the client needs, that is the person's to decide
(a trusted folder, a trusted project), the row says (`needs`) and the record carries. Only the
config file is written, atomically, through the confined writer.
"""

from __future__ import annotations

import json
import os

from mj_core.errors import ContractUnmet
from mj_core.errors import Refused
from mj_core.errors import UsageError

from mj_policy import providers

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

NAME = "majordomus"  # the server's name in every client's table
ENTRY = {"command": "majordomus", "args": ["mcp"]}


def clients() -> list[providers.Provider]:
    """The providers whose MCP configuration majordomus knows, in the table's order."""
    return [p for p in providers.table().values() if p.data.get("mcp")]


def config_block(provider: providers.Provider) -> dict[str, str]:
    found = provider.data.get("mcp")
    if not isinstance(found, dict):
        known = ", ".join(p.key for p in clients())
        raise UsageError(f"mcp install: {provider.key} has no MCP configuration here ({known})")
    return {str(k): str(v) for k, v in found.items() if k != "entry"}


def entry(provider: providers.Provider) -> dict[str, Any]:
    """The server's entry for this client: the command, and what the client's row adds (Gemini
    CLI's `trust`, so a headless run offers the read-only tools)."""
    return {**ENTRY, **dict(provider.data["mcp"].get("entry") or {})}


def snippet(provider: providers.Provider) -> str:
    """The entry as the person would add it to the file by hand."""
    block = config_block(provider)
    if block["format"] == "toml":
        return _toml(block, entry(provider))
    return json.dumps({block["table"]: {NAME: entry(provider)}}, indent=2) + "\n"


def _toml(block: dict[str, str], server: dict[str, Any]) -> str:
    lines = [f"[{block['table']}.{NAME}]", f'command = "{server["command"]}"', 'args = ["mcp"]']
    flags = [(key, value) for key, value in server.items() if type(value) is bool]
    lines += [f"{key} = {str(value).lower()}" for key, value in flags]
    return "\n".join(lines) + "\n"


def read(root: Path, provider: providers.Provider) -> tuple[dict[str, Any] | None, str | None]:
    """(the file parsed, its text); (None, None) when it is absent. Malformed → 10."""
    text = read_text(root, provider)
    return (None, None) if text is None else (parsed(config_block(provider), text), text)


def read_text(root: Path, provider: providers.Provider) -> str | None:
    """The configuration file's text; None when it is absent. A link → 15, unreadable → 10."""
    block = config_block(provider)
    path = os.path.join(root, block["config"])
    if os.path.islink(path):
        raise Refused(f"{block['config']}: a symbolic link; not followed")
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ContractUnmet(f"{block['config']}:1: unreadable ({exc})") from None


def parsed(block: dict[str, str], text: str) -> dict[str, Any]:
    shown = block["config"]
    try:
        if block["format"] == "toml":
            import tomllib

            data: Any = tomllib.loads(text)
        else:
            data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise ContractUnmet(f"{shown}:{exc.lineno}: not JSON ({exc.msg})") from None
    except ValueError as exc:  # tomllib.TOMLDecodeError
        raise ContractUnmet(f"{shown}: not TOML ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get(block["table"], {}), dict):
        raise ContractUnmet(f"{shown}:1: {block['table']}: not a table of servers")
    return data


def state(data: dict[str, Any] | None, provider: providers.Provider) -> str:
    """absent (no file) · unwired (no majordomus entry) · wired · other (an entry of that name
    that does not run `majordomus mcp`)."""
    if data is None:
        return "absent"
    entry = data.get(config_block(provider)["table"], {}).get(NAME)
    if entry is None:
        return "unwired"
    wired = isinstance(entry, dict) and os.path.basename(str(entry.get("command", ""))) == NAME
    return "wired" if wired and list(entry.get("args") or [])[:1] == ["mcp"] else "other"


def written(provider: providers.Provider, text: str | None) -> str | None:
    """What `install --write` makes of the file's text (None: no file): the text with the
    entry added, or the text as it was when install writes nothing (the entry is there, one of
    that name differs, or the file does not parse)."""
    block = config_block(provider)
    try:
        data = parsed(block, text) if text is not None else None
    except ContractUnmet:
        return text
    if state(data, provider) in ("wired", "other"):
        return text
    return added(provider, data, text)


def lacks(data: dict[str, Any] | None, block: dict[str, str], server: dict[str, Any]) -> list[str]:
    """The keys of the entry majordomus writes that the entry found there does not carry."""
    found = (data or {}).get(block["table"], {}).get(NAME) or {}
    return [key for key in server if key not in ENTRY and found.get(key) != server[key]]


def added(provider: providers.Provider, data: dict[str, Any] | None, text: str | None) -> str:
    block, server = config_block(provider), entry(provider)
    if block["format"] == "toml":
        before = text or ""
        return (
            before
            + ("\n" if before and not before.endswith("\n") else "")
            + ("\n" if before.strip() else "")
            + _toml(block, server)
        )
    document = dict(data or {})
    document[block["table"]] = {**document.get(block["table"], {}), NAME: server}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def fact(root: Path) -> Record:
    """The `mcp` fact: each client's configuration file and whether it starts this server."""
    found = []
    for provider in clients():
        block = config_block(provider)
        if not os.path.lexists(os.path.join(root, block["config"])):
            continue  # nothing declared for this client: nothing to report
        try:
            data, _ = read(root, provider)
            found.append(
                {
                    "provider": provider.key,
                    "config": block["config"],
                    "state": state(data, provider),
                    "problem": None,
                }
            )
        except (ContractUnmet, Refused) as exc:
            found.append(
                {
                    "provider": provider.key,
                    "config": block["config"],
                    "state": "broken",
                    "problem": exc.message,
                }
            )
    return {"kind": "fact", "fact": "mcp", "clients": found}
