"""The plan's lifecycle in this checkout: its claims across worktrees (`claims`, `lock`), its
markers against the ledger (`markers`), and `plan start|verify|done` (`write`).

Imports: `mj_state`, `mj_state.ledger`, `mj_state.remote`, `mj_state.task`, `mj_core`,
`mj_core.git`, `mj_core.stream`, `mj_core.write`, `mj_core.yaml`, `mj_policy.layer`,
`mj_policy.plan`.
Imported by: `mj_state.task`, `mj_watch`.
"""
