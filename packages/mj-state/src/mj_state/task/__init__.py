"""The one scoped task: its record and its lines in the ledger (`record`, `log`, `state`, `tail`,
`active`), `start` (`start_facts`, `start_judge`, and the writer `start`) and the rules it is
judged by, scope and obligations, `check` (`check_facts`, `judge`, `explain`, `place`), overlap
with other worktrees, the tool's own writes, and evidence.

Imports: `mj_state`, `mj_state.ledger`, `mj_state.plan`, `mj_state.records`, `mj_state.remote`,
`mj_core`, `mj_core.git`, `mj_core.schema`, `mj_core.stream`, `mj_core.write`, `mj_core.yaml`,
`mj_policy.knowledge`, `mj_policy.layer`, `mj_policy.plan`, `mj_policy.projection`,
`mj_policy.rules`.
Imported by: `mj_state`, `mj_state.evidence`, `mj_state.finish`, `mj_state.ledger`,
`mj_state.plan`, `mj_state.records`, `mj_state.session`, `majordomus`, `mj_watch`.
"""
