"""`majordomus recover`: episodes left open, gaps between the logs and the ledger (`logs`),
duplicate records and stray temporaries (`records`).

Imports: `mj_state.ledger`, `mj_state.records`, `mj_state.session`, `mj_core`, `mj_core.stream`,
`mj_core.write`, `mj_core.yaml`, `mj_policy.layer`.
Imported by: nothing else of the tool.
"""
