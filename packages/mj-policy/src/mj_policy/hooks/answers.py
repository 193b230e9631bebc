"""What a client's hook prints for its answer to reach the client: a tool call refused with
its reason, a turn's end held with what is still unmet (`share/providers.yaml` names each
client's answer, `hooks.tool.answer` and `hooks.stop.answer`). Nothing printed is the
client's own default: the call goes ahead, the turn ends.
"""

from __future__ import annotations

import json


def tool(answer: str, event: str, reason: str) -> str:
    """The answer that refuses a tool call: `permission-decision` (Claude Code, Qwen Code,
    Codex CLI), `permission-decision-flat` (Copilot CLI: the same keys at the top) or
    `decision` (Gemini CLI)."""
    if answer == "permission-decision-flat":
        return json.dumps({"permissionDecision": "deny", "permissionDecisionReason": reason}) + "\n"
    if answer == "permission-decision":
        said = {"hookEventName": event, "permissionDecision": "deny"}
        said["permissionDecisionReason"] = reason
        return json.dumps({"hookSpecificOutput": said}) + "\n"
    return json.dumps({"decision": "deny", "reason": reason}) + "\n"


def stop(answer: str, reason: str) -> str:
    """The answer that keeps a turn going with `reason` for the model: `decision-block`
    (Claude Code, Qwen Code, Codex CLI, Copilot CLI) or `decision-deny` (Gemini CLI's
    AfterAgent)."""
    decision = "block" if answer == "decision-block" else "deny"
    return json.dumps({"decision": decision, "reason": reason}) + "\n"
