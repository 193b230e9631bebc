"""The provider hooks' table: for each provider with an adapter, its settings file, its
shims' directory, the command a settings entry runs, and each event's shim and the arguments
it passes to `majordomus capture`; what the providers without one were found to offer."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

MARKER = "# majordomus capture shim"
# provider → its adapter: the settings file, the shims' directory, event → (shim, arguments)
ADAPTERS: dict[str, Record] = {
    "claude-code": {
        "settings": ".claude/settings.json",
        "hooks": ".claude/hooks",
        "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/{shim}',
        "events": {
            "SessionStart": ("majordomus-session-start", "session --event start"),
            "UserPromptSubmit": ("majordomus-capture", "prompt"),
            "PreCompact": ("majordomus-pre-compact", "session --event compact"),
            "SessionEnd": ("majordomus-session-end", "session --event end"),
            "PreToolUse": ("majordomus-tool", "tool"),
            "Stop": ("majordomus-stop", "stop"),
        },
        "briefing": "text",  # a SessionStart hook's stdout is added to the model's context
    },
    # Gemini CLI 0.61 (its bundle/docs/hooks/reference.md): the same `hooks` shape in
    # .gemini/settings.json; SessionStart answers JSON whose additionalContext reaches the model
    "gemini": {
        "settings": ".gemini/settings.json",
        "hooks": ".gemini/hooks",
        "command": '"$GEMINI_PROJECT_DIR"/.gemini/hooks/{shim}',
        "events": {
            "SessionStart": ("majordomus-session-start", "session --event start"),
            "BeforeAgent": ("majordomus-capture", "prompt"),
            "PreCompress": ("majordomus-pre-compress", "session --event compact"),
            "SessionEnd": ("majordomus-session-end", "session --event end"),
            "BeforeTool": ("majordomus-tool", "tool"),
            "AfterAgent": ("majordomus-stop", "stop"),
        },
        "briefing": "additional-context",
    },
}
# providers without an adapter here, and what their installed clients were found to offer
UNSUPPORTED = {
    "codex": (
        "no adapter in this majordomus; Codex CLI 0.171 carries a hooks engine (hooks.json, "
        "sessionStart, sessionEnd, preCompact events, trust-gated project hooks) but documents "
        "no configuration in its package, so nothing is wired"
    ),
}
