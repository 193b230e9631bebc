"""What a client's tool call asks to write, read from its hook payload alone (pure).

The provider's table (`share/providers.yaml`, `hooks.tool`) names the tools that write a file
(and the key of the path in `tool_input`) and the tools that run a shell command (and the key
of the command, and of its directory when the tool takes one) and the tools that apply a patch
(and the key of its text: `act.apply_patch` reads the files it names; a patch tool whose input is
text is the patch itself). The payload's keys are `tool_name` and `tool_input` unless the table
names others (`payload`: Copilot CLI's `toolName` and `toolArgs`). A tool in none is not a
write: it goes through unjudged, whatever its name. A payload that is not an object, a tool
name that is not a string, a writing tool whose path is not a non-empty string: these cannot
be judged (`Unjudged`), and the hook lets the call through and says so (CLI-REFERENCE
Decision 21).
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from mj_watch.act.shell_verbs import Target


class Unjudged(Exception):
    """The payload does not say what the call would write."""


class Intent:
    """The tool called, the directory its paths are relative to, and what it would write."""

    __slots__ = ("cwd", "edits", "targets", "tool")

    def __init__(self, tool: str, cwd: str | None, targets: list[Target]) -> None:
        self.tool = tool
        self.cwd = cwd  # the client's working directory (None: not in the payload)
        self.targets = targets
        self.edits: Any = None  # a file tool's input: what the file would hold after it


def intent(table: dict[str, Any], payload: object) -> Intent | None:
    """The write the call asks for; None for a call that writes no file."""
    if type(payload) is not dict:
        raise Unjudged("the payload is not a JSON object")
    keys = table.get("payload") or {}
    tool_key, input_key = keys.get("tool", "tool_name"), keys.get("input", "tool_input")
    tool = payload.get(tool_key)
    if type(tool) is not str:
        raise Unjudged(f"the payload names no tool ({tool_key} is not a string)")
    writes, shell = table.get("writes") or {}, table.get("shell") or {}
    patch = table.get("patch") or {}
    if tool not in writes and tool not in shell and tool not in patch:
        return None
    args = payload.get(input_key)
    if tool in patch and type(args) is str:  # the input is the patch text itself (Copilot CLI)
        return _patch(tool, args, _cwd(payload))
    if type(args) is not dict:
        raise Unjudged(f"{_shown(tool)}: {input_key} is not an object")
    cwd = _cwd(payload)
    if tool in writes:
        path = args.get(writes[tool])
        if type(path) is not str or not path:
            raise Unjudged(f"{_shown(tool)}: {writes[tool]} is not a path")
        found = Intent(tool, cwd, [(path, ".", tool, None)])
        found.edits = args
        return found
    if tool in patch:
        return _patch(tool, args.get(patch[tool]), cwd)
    return _shell(table, tool, args, cwd)


def _cwd(payload: dict[str, Any]) -> str | None:
    cwd = payload.get("cwd")
    return cwd if type(cwd) is str and cwd else None


def _patch(tool: str, text: object, cwd: str | None) -> Intent:
    """A patch tool (`apply_patch`): the files its text names (`act.apply_patch`); a text the
    client would not apply cannot be judged (it writes nothing)."""
    from mj_watch.act import apply_patch as applypatch

    if type(text) is not str:
        raise Unjudged(f"{_shown(tool)}: the patch is not text")
    try:
        found = applypatch.targets(text)
    except applypatch.Unreadable as exc:
        raise Unjudged(f"{_shown(tool)}: the patch is not readable ({exc})") from None
    return Intent(tool, cwd, [(path or ".", ".", tool, None) for _, path in found])


def _shell(table: dict[str, Any], tool: str, args: dict[str, Any], cwd: str | None) -> Intent:
    from mj_watch.act import shell_writes as shwrites

    command = args.get(shell_key := table["shell"][tool])
    if type(command) is not str:
        raise Unjudged(f"{_shown(tool)}: {shell_key} is not a command")
    where = args.get(table.get("shell_dir") or "")
    targets = shwrites.targets(command)
    if type(where) is str and where:
        targets = [(p, _under(where, d), v, i) for p, d, v, i in targets]
    return Intent(tool, cwd, targets)


def _under(where: str, shell_cwd: str | None) -> str | None:
    import posixpath

    return None if shell_cwd is None else posixpath.join(where, shell_cwd)


def _shown(tool: str) -> str:
    return tool if tool.isprintable() and len(tool) <= 80 else repr(tool[:80])
