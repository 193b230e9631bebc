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
            "SubagentStop": ("majordomus-subagent-stop", "stop --event subagent"),
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
    # Qwen Code 0.15.10 (its bundled docs/features/hooks.md): Claude Code's events and answers
    # in .qwen/settings.json, each command run with QWEN_PROJECT_DIR
    "qwen-code": {
        "settings": ".qwen/settings.json",
        "hooks": ".qwen/hooks",
        "command": '"$QWEN_PROJECT_DIR"/.qwen/hooks/{shim}',
        "events": {
            "SessionStart": ("majordomus-session-start", "session --event start"),
            "UserPromptSubmit": ("majordomus-capture", "prompt"),
            "PreCompact": ("majordomus-pre-compact", "session --event compact"),
            "SessionEnd": ("majordomus-session-end", "session --event end"),
            "PreToolUse": ("majordomus-tool", "tool"),
            "Stop": ("majordomus-stop", "stop"),
            "SubagentStop": ("majordomus-subagent-stop", "stop --event subagent"),
        },
        "briefing": "additional-context",
    },
    # Codex CLI 0.171.0 (its binary, its app server's hooks/list, a run offline): Claude Code's
    # events and answers in <repository>/.codex/hooks.json, each command run by a shell in the
    # session's directory (no project directory in its environment); they run only once the
    # project is trusted and each hook is (what an interactive `codex` asks, kept in
    # ~/.codex/config.toml)
    "codex": {
        "settings": ".codex/hooks.json",
        "hooks": ".codex/hooks",
        "command": '"$(git rev-parse --show-toplevel)"/.codex/hooks/{shim}',
        "events": {
            "SessionStart": ("majordomus-session-start", "session --event start"),
            "UserPromptSubmit": ("majordomus-capture", "prompt"),
            "PreCompact": ("majordomus-pre-compact", "session --event compact"),
            "SessionEnd": ("majordomus-session-end", "session --event end"),
            "PreToolUse": ("majordomus-tool", "tool"),
            "Stop": ("majordomus-stop", "stop"),
            "SubagentStop": ("majordomus-subagent-stop", "stop --event subagent"),
        },
        "briefing": "additional-context",
        "needs": (
            "Codex runs them only in a project it trusts, and only the hooks it trusts: an "
            "interactive `codex` asks once, and again for a hook new or changed"
        ),
    },
}
# providers without an adapter here, and what their installed clients were found to offer
UNSUPPORTED = {
    "copilot": (
        "no adapter in this majordomus; Copilot CLI 1.0.102 runs the hooks of "
        ".github/hooks/*.json in a trusted folder: preToolUse (payload toolName, toolArgs, cwd; "
        "permissionDecision deny) and agentStop (decision block), but with an OpenAI-style "
        "model its file edits go through apply_patch, whose targets are inside the patch text; "
        "none of this is wired here, so check and the pre-push finish --check judge its work "
        "after the fact"
    ),
}
