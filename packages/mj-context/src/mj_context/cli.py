"""`mj-context`: the briefing: facts in, sections within a budget out; text and JSON renderers."""

from __future__ import annotations

from mj_core.cli import LazyTable
from mj_core.cli import Tool

# subcommand → the module whose STAGES defines it; a run imports only its own module (the
# briefing's text form is mj_state's, where a session's working context stores it)
TABLE = LazyTable(
    {
        "build": "mj_context.build",
        "render": "mj_state.brief_render",
        "prompt-render": "mj_context.prompt_render",
    }
)

DESCRIPTION = "the briefing: facts in, sections within a budget out; text and JSON renderers"

TOOL = Tool("mj-context", DESCRIPTION, TABLE)
PROG = TOOL.prog
parse = TOOL.parse
parse_stage = TOOL.parse_stage
main = TOOL.main
script = TOOL.script
