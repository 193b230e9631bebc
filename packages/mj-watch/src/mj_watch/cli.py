"""`mj-watch`: the judges: doctor and watch checks as functions from facts to findings."""

from __future__ import annotations

from mj_core.cli import LazyTable
from mj_core.cli import Tool

# subcommand → the module whose STAGES defines it; a run imports only its own module
TABLE = LazyTable(
    {
        "adr-propose": "mj_watch.adr.propose",
        "doctor": "mj_watch.doctor.judge",
        "doctrine": "mj_watch.doctrine.command",
        "doctrine-show": "mj_watch.doctrine.command",
        "doctrine-run": "mj_watch.doctrine.command",
        "facts": "mj_watch.gather",
        "finish": "mj_watch.finish.judge",
        "plan-start": "mj_watch.plan.start",
        "plan-move": "mj_watch.plan.move",
        "ratchet": "mj_watch.ratchet.command",
        "ratchet-update-judge": "mj_watch.ratchet.update_judge",
        "ratchet-update-write": "mj_watch.ratchet.update_write",
        "watch": "mj_watch.watch.judge",
        "verify-run": "mj_watch.verify.rerun",
        "verify": "mj_watch.verify.verdict",
        "verify-report": "mj_watch.verify.reports",
    }
)

DESCRIPTION = "the judges: doctor and watch checks as functions from facts to findings"

TOOL = Tool("mj-watch", DESCRIPTION, TABLE)
PROG = TOOL.prog
parse = TOOL.parse
parse_stage = TOOL.parse_stage
main = TOOL.main
script = TOOL.script
