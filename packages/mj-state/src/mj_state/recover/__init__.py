"""`majordomus recover` as facts | judge | writer: `facts` gathers the open episodes, the closed
records, the gaps between the logs and the ledger (`logs`) and the stray temporaries; `judge`
plans each repair; `write` plans again and carries them out (`records`, `logs`).

Imports: `mj_state.ledger`, `mj_state.records`, `mj_state.session`, `mj_core`, `mj_core.stream`,
`mj_core.write`, `mj_core.yaml`, `mj_policy.layer`.
Imported by: nothing else of the tool.
"""
