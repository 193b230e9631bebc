"""`mj-state`: git identity and the checkout's durable records: task, checkpoints, handovers,
decisions, questions, ledger, sessions; worktree overlap.
"""

from __future__ import annotations

from mj_core.cli import LazyTable
from mj_core.cli import Tool

# subcommand → the module whose STAGES defines it; a run imports only its own module
TABLE = LazyTable(
    {
        "start": "mj_state.start",
        "check": "mj_state.check",
        "touch": "mj_state.check",
        "history": "mj_state.history",
        "question-add": "mj_state.asking",
        "question-resolve": "mj_state.asking",
        "question-list": "mj_state.asking",
        "facts": "mj_state.facts",
        "record": "mj_state.finishwrite",
        "log": "mj_state.appending",
        "checkpoint": "mj_state.checkpoint",
        "handover": "mj_state.handover",
        "decision-add": "mj_state.decisionlog",
        "plan-write": "mj_state.planwrite",
        "adr-propose": "mj_state.adrpropose",
        "adrs": "mj_state.adrcheck",
        "knowledge-refs": "mj_state.recordrefs",
        "knowledge-promote": "mj_state.promoting",
        "decision-list": "mj_state.decisionlog",
        "decision-show": "mj_state.decisionlog",
        "session-start": "mj_state.sessionstart",
        "session-close": "mj_state.sessionclose",
        "session-archive": "mj_state.sessionarchive",
        "episode": "mj_state.episodefacts",
        "session-status": "mj_state.sessionread",
        "session-list": "mj_state.sessionread",
        "session-show": "mj_state.sessionread",
        "session-latest": "mj_state.sessionread",
        "session-context-path": "mj_state.sessionread",
        "recover": "mj_state.recover",
        "evidence": "mj_state.evidence",
        "plan-claims": "mj_state.planclaims",
        "plan-markers": "mj_state.planmarkers",
        "capture-render": "mj_state.capturestore",
        "capture-reconcile": "mj_state.capturestore",
        "capture-prune": "mj_state.capturestore",
        "capture-acknowledge": "mj_state.capturelog",
        "search": "mj_state.search",
        "remote-facts": "mj_state.remote.syncfacts",
        "remote-judge": "mj_state.remote.syncjudge",
        "remote-publish": "mj_state.remote.syncwrite",
        "claims": "mj_state.remote.claimlist",
        "verify-facts": "mj_state.verifyfacts.rangefacts",
        "hook-pass": "mj_state.hookpass",
    }
)

DESCRIPTION = (
    "git identity and the checkout's durable records: task, checkpoints, handovers, "
    "decisions, questions, ledger; worktree overlap"
)

TOOL = Tool("mj-state", DESCRIPTION, TABLE)
PROG = TOOL.prog
parse = TOOL.parse
main = TOOL.main
script = TOOL.script
