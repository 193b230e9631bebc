"""`mj-policy`: the human-edited canonical layer: manifest, policy, profiles, rules, context
documents, prompts; provider projections.
"""

from __future__ import annotations

from mj_core.cli import LazyTable
from mj_core.cli import Tool

# subcommand → the module whose STAGES defines it; a run imports only its own module
TABLE = LazyTable(
    {
        "context-validate": "mj_policy.contextstages",
        "mcp-install": "mj_policy.mcpwiring",
        "context-list": "mj_policy.contextstages",
        "context-resolve": "mj_policy.contextstages",
        "context-explain": "mj_policy.contextstages",
        "context-affected": "mj_policy.contextsync",
        "archive-plan": "mj_policy.archive",
        "plan": "mj_policy.planstages",
        "plan-brief": "mj_policy.planbrief",
        "adr": "mj_policy.adrstages",
        "adr-show": "mj_policy.adrstages",
        "skills": "mj_policy.skillstages",
        "skill-show": "mj_policy.skillstages",
        "archive-write": "mj_policy.archive",
        "context-check-sync": "mj_policy.contextsync",
        "prompt-list": "mj_policy.promptstages",
        "prompt-show": "mj_policy.promptstages",
        "facts": "mj_policy.layerfacts",
        "init": "mj_policy.skeleton",
        "instructions": "mj_policy.importfacts",
        "adopt": "mj_policy.importwrite",
        "update": "mj_policy.update",
        "receipt": "mj_policy.receipt",
        "brief-receipt": "mj_policy.receiptbrief",
        "rules": "mj_policy.rulestages",
        "rule": "mj_policy.rulestages",
        "vendor-status": "mj_policy.rulestages",
        "vendor-diff": "mj_policy.rulestages",
        "vendor-update": "mj_policy.rulestages",
    }
)

DESCRIPTION = (
    "the human-edited canonical layer: manifest, policy, profiles, rules, context "
    "documents, prompts; provider projections"
)

TOOL = Tool("mj-policy", DESCRIPTION, TABLE)
PROG = TOOL.prog
parse = TOOL.parse
main = TOOL.main
script = TOOL.script
