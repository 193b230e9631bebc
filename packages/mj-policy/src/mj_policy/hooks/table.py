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
    # GitHub Copilot CLI 1.0.102 (its SDK's hook types, its changelog, a run offline): a file of
    # its own in .github/hooks/ (`version`, `hooks`: event → entries, each a `bash` command run
    # in the session's directory), loaded in a folder the person trusts; camelCase events
    "copilot": {
        "settings": ".github/hooks/majordomus.json",
        "hooks": ".github/hooks",
        "command": '"$(git rev-parse --show-toplevel)"/.github/hooks/{shim}',
        "format": "copilot",
        "events": {
            "userPromptSubmitted": ("majordomus-capture", "prompt"),
            "preToolUse": ("majordomus-tool", "tool"),
            "agentStop": ("majordomus-stop", "stop"),
            "subagentStop": ("majordomus-subagent-stop", "stop --event subagent"),
        },
        "needs": (
            "Copilot CLI runs a project's hooks only in a folder the person trusts (its "
            "trustedFolders, what an interactive `copilot` asks once)"
        ),
    },
}
# providers without an adapter here, and what their installed clients were found to offer
UNSUPPORTED: dict[str, str] = {}
