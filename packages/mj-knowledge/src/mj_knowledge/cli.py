"""`mj-knowledge`: knowledge sources, the deterministic reference graph with provenance, pointers,
candidates.
"""

from __future__ import annotations

from mj_core.cli import LazyTable
from mj_core.cli import Tool

# subcommand → the module whose STAGES defines it; a run imports only its own module
TABLE = LazyTable(
    {
        "index": "mj_knowledge.stages",
        "graph": "mj_knowledge.stages",
        "pointers": "mj_knowledge.pointers",
        "related": "mj_knowledge.related",
        "derive-facts": "mj_knowledge.derive.facts",
        "derive-judge": "mj_knowledge.derive.judge",
        "derive-write": "mj_knowledge.derive.write",
        "candidates": "mj_knowledge.candidates",
        "reject-facts": "mj_knowledge.reject.facts",
        "reject-judge": "mj_knowledge.reject.judge",
        "reject-write": "mj_knowledge.reject.write",
    }
)

DESCRIPTION = (
    "knowledge sources, the deterministic reference graph with provenance, pointers, candidates"
)

TOOL = Tool("mj-knowledge", DESCRIPTION, TABLE)
PROG = TOOL.prog
parse = TOOL.parse
parse_stage = TOOL.parse_stage
main = TOOL.main
script = TOOL.script
