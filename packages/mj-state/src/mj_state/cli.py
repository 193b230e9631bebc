"""`mj-state`: git identity and the checkout's durable records: task, checkpoints, handovers,
decisions, questions, ledger, sessions; worktree overlap.
"""

from __future__ import annotations

from mj_core.cli import LazyTable
from mj_core.cli import Tool

# subcommand → the module whose STAGES defines it; a run imports only its own module
TABLE = LazyTable(
    {
        "start-judge": "mj_state.task.start_judge",
        "start-write": "mj_state.task.start",
        "check": "mj_state.task.check",
        "touch": "mj_state.task.check",
        "history": "mj_state.history",
        "question-add-facts": "mj_state.question.facts",
        "question-add-judge": "mj_state.question.judge",
        "question-add-write": "mj_state.question.write",
        "question-resolve-facts": "mj_state.question.facts",
        "question-resolve-judge": "mj_state.question.judge",
        "question-resolve-write": "mj_state.question.write",
        "question-list": "mj_state.records.asking",
        "facts": "mj_state.facts",
        "verification": "mj_state.finish.verification_run",
        "record": "mj_state.finish.write",
        "log": "mj_state.appending",
        "checkpoint-facts": "mj_state.checkpoint.facts",
        "checkpoint-judge": "mj_state.checkpoint.judge",
        "checkpoint-write": "mj_state.checkpoint.write",
        "handover-facts": "mj_state.handover.facts",
        "handover-judge": "mj_state.handover.judge",
        "handover-write": "mj_state.handover.write",
        "decision-add-facts": "mj_state.decision.facts",
        "decision-add-judge": "mj_state.decision.judge",
        "decision-add-write": "mj_state.decision.write",
        "plan-move-facts": "mj_state.plan.move_facts",
        "plan-move-write": "mj_state.plan.move_write",
        "plan-start-facts": "mj_state.plan.start_facts",
        "plan-start-write": "mj_state.plan.start_write",
        "adr-propose-facts": "mj_state.records.adr_facts",
        "adr-propose-write": "mj_state.records.adr_propose",
        "adrs": "mj_state.records.adr_check",
        "knowledge-refs": "mj_state.records.refs",
        "knowledge-promote-facts": "mj_state.promote.facts",
        "knowledge-promote-judge": "mj_state.promote.judge",
        "knowledge-promote-write": "mj_state.promote.write",
        "decision-list": "mj_state.records.decision_log",
        "decision-show": "mj_state.records.decision_log",
        "session-start-facts": "mj_state.session.start_facts",
        "session-start-judge": "mj_state.session.start_judge",
        "session-start-write": "mj_state.session.start",
        "session-close-facts": "mj_state.session.close_facts",
        "session-close-judge": "mj_state.session.close_judge",
        "session-close-write": "mj_state.session.close",
        "session-archive-facts": "mj_state.session.archive",
        "session-archive-judge": "mj_state.session.archive",
        "session-archive-write": "mj_state.session.archive",
        "episode": "mj_state.session.episode_facts",
        "session-status": "mj_state.session.read",
        "session-list": "mj_state.session.read",
        "session-show": "mj_state.session.read",
        "session-latest": "mj_state.session.read",
        "session-context-path": "mj_state.session.read",
        "rotate-facts": "mj_state.ledger.rotate",
        "rotate-judge": "mj_state.ledger.rotate",
        "rotate-write": "mj_state.ledger.rotate",
        "recover-facts": "mj_state.recover.facts",
        "recover-judge": "mj_state.recover.judge",
        "recover-write": "mj_state.recover.write",
        "evidence-facts": "mj_state.evidence.facts",
        "evidence-judge": "mj_state.evidence.judge",
        "evidence-write": "mj_state.evidence.write",
        "plan-claims": "mj_state.plan.claims",
        "plan-markers": "mj_state.plan.markers",
        "capture-render-facts": "mj_state.capture.render.facts",
        "capture-render-judge": "mj_state.capture.render.judge",
        "capture-render-write": "mj_state.capture.render.write",
        "capture-reconcile-facts": "mj_state.capture.reconcile.facts",
        "capture-reconcile-judge": "mj_state.capture.reconcile.judge",
        "capture-reconcile-write": "mj_state.capture.reconcile.write",
        "capture-prune-facts": "mj_state.capture.prune.facts",
        "capture-prune-judge": "mj_state.capture.prune.judge",
        "capture-prune-write": "mj_state.capture.prune.write",
        "capture-acknowledge-facts": "mj_state.capture.acknowledge.facts",
        "capture-acknowledge-judge": "mj_state.capture.acknowledge.judge",
        "capture-acknowledge-write": "mj_state.capture.acknowledge.write",
        "search": "mj_state.search.scan",
        "remote-facts": "mj_state.remote.sync_facts",
        "remote-judge": "mj_state.remote.sync_judge",
        "remote-publish": "mj_state.remote.sync_write",
        "claims": "mj_state.remote.claim_list",
        "verify-facts": "mj_state.verifyfacts.range_facts",
        "hook-pass": "mj_state.hook_pass",
    }
)

DESCRIPTION = (
    "git identity and the checkout's durable records: task, checkpoints, handovers, "
    "decisions, questions, ledger; worktree overlap"
)

TOOL = Tool("mj-state", DESCRIPTION, TABLE)
PROG = TOOL.prog
parse = TOOL.parse
parse_stage = TOOL.parse_stage
main = TOOL.main
script = TOOL.script
