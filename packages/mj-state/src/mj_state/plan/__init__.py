"""The plan's lifecycle in this checkout: its claims across worktrees (`claims`, `lock`), its
markers against the ledger (`markers`), `plan start` as facts, judge and writer (`start_facts`,
`start_judge`, `start_write`), `plan verify|evidence|done` (`write`) and their rules (`rules`).

Imports: `mj_state`, `mj_state.ledger`, `mj_state.remote`, `mj_state.task`, `mj_core`,
`mj_core.git`, `mj_core.stream`, `mj_core.write`, `mj_core.yaml`, `mj_policy.layer`,
`mj_policy.plan`.
Imported by: `mj_state.task`, `mj_watch`.
"""
