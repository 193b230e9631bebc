"""`watch`: drift in the work (`judge`, `watch.drift_task`, `watch.drift_layer`) over what `facts
--for watch` gathered (`gather`, `facts`).

Imports: `mj_watch.doctor`, `mj_watch.doctrine`, `mj_core`, `mj_core.stream`, `mj_core.yaml`,
`mj_policy.layer`, `mj_policy.projection`, `mj_policy.prompts`, `mj_state`, `mj_state.ledger`,
`mj_state.records`, `mj_state.task`.
Imported by: `mj_watch`.
"""
