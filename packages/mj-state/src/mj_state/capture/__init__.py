"""The prompt archive the provider hooks write (`archive`), its upkeep (`store`) and the failure
log a person acknowledges (`log`).

Imports: `mj_state`, `mj_state.ledger`, `mj_state.session`, `mj_core`, `mj_core.credentials`,
`mj_core.write`, `mj_core.yaml`, `mj_policy.layer`.
Imported by: `mj_state.capture.acknowledge`, `mj_state.capture.prune`,
`mj_state.capture.reconcile`, `mj_state.capture.render`, `majordomus`, `mj_watch`.
"""
