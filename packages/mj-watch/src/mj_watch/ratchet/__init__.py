"""`ratchet check|update` (`command`): existing dirt counted (`facts`), with the tracked tree's
credentials held at zero (`secret_scan`).

Imports: `mj_core`, `mj_core.credentials`, `mj_core.git`, `mj_core.schema`, `mj_core.stream`,
`mj_core.write`, `mj_core.yaml`, `mj_policy.layer`, `mj_state.ledger`, `mj_state.task`.
Imported by: `mj_watch`, `mj_watch.doctor`.
"""
