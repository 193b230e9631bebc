"""The state side of `finish`: its facts (`facts`, `push_range`, `substance`), the verification it
runs (`verification`, `steps`), and its one write (`write`).

Imports: `mj_state`, `mj_state.ledger`, `mj_state.records`, `mj_state.remote`, `mj_state.task`,
`mj_core`, `mj_core.git`, `mj_core.stream`, `mj_core.write`, `mj_core.yaml`, `mj_policy.layer`.
Imported by: `mj_state`, `mj_state.evidence`, `mj_state.records`, `mj_state.verifyfacts`,
`mj_watch`.
"""
