"""`mj-policy`: the human-edited canonical layer: manifest, policy, profiles, rules, context
documents, prompts; provider projections.
"""

from __future__ import annotations

from mj_core.cli import LazyTable
from mj_core.cli import Tool

# subcommand → the module whose STAGES defines it; a run imports only its own module
TABLE = LazyTable(
    {
        "context-validate": "mj_policy.context.stages",
        "mcp-install-facts": "mj_policy.mcp_install.facts",
        "mcp-install-judge": "mj_policy.mcp_install.judge",
        "mcp-install-write": "mj_policy.mcp_install.write",
        "context-list": "mj_policy.context.stages",
        "context-resolve": "mj_policy.context.stages",
        "context-explain": "mj_policy.context.stages",
        "context-affected": "mj_policy.context.sync",
        "archive-facts": "mj_policy.archive.facts",
        "archive-judge": "mj_policy.archive.judge",
        "plan": "mj_policy.plan.stages",
        "plan-brief": "mj_policy.plan.brief",
        "adr": "mj_policy.adr.stages",
        "adr-show": "mj_policy.adr.stages",
        "skills": "mj_policy.skills.stages",
        "skill-show": "mj_policy.skills.stages",
        "archive-write": "mj_policy.archive.write",
        "context-check-sync": "mj_policy.context.sync",
        "prompt-list": "mj_policy.prompts.stages",
        "prompt-show": "mj_policy.prompts.stages",
        "facts": "mj_policy.layer.facts",
        "init-facts": "mj_policy.layer.init_facts",
        "init-judge": "mj_policy.layer.init_judge",
        "init-write": "mj_policy.layer.init_write",
        "instructions": "mj_policy.adoption.facts",
        "adopt-facts": "mj_policy.adoption.adopt_facts",
        "adopt-judge": "mj_policy.adoption.adopt_judge",
        "adopt-write": "mj_policy.adoption.adopt_write",
        "update-facts": "mj_policy.projection.update_facts",
        "update-judge": "mj_policy.projection.update_judge",
        "update-write": "mj_policy.projection.update_write",
        "receipt": "mj_policy.receipt.gather",
        "brief-receipt": "mj_policy.receipt.brief",
        "rules": "mj_policy.rules.stages",
        "rule": "mj_policy.rules.stages",
        "vendor-status": "mj_policy.rules.stages",
        "vendor-diff": "mj_policy.rules.stages",
        "vendor-update-facts": "mj_policy.rules.vendor_update_facts",
        "vendor-update-judge": "mj_policy.rules.vendor_update_judge",
        "vendor-update-write": "mj_policy.rules.vendor_update_write",
    }
)

DESCRIPTION = (
    "the human-edited canonical layer: manifest, policy, profiles, rules, context "
    "documents, prompts; provider projections"
)

TOOL = Tool("mj-policy", DESCRIPTION, TABLE)
PROG = TOOL.prog
parse = TOOL.parse
parse_stage = TOOL.parse_stage
main = TOOL.main
script = TOOL.script
