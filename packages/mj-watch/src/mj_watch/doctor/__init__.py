"""`doctor`: its facts (`facts`, `facts_view`), its judge (`judge`), and its looks at capture, MCP,
declarations, knowledge, the plan, records, reach, the remote, confinement, probes and its own
time.

Imports: `mj_watch.act`, `mj_watch.doctrine`, `mj_watch.ratchet`, `mj_watch.wiring`, `mj_core`,
`mj_core.git`, `mj_core.stream`, `mj_core.yaml`, `mj_policy.adr`, `mj_policy.hooks`,
`mj_policy.knowledge`, `mj_policy.layer`, `mj_policy.plan`, `mj_policy.prompts`,
`mj_policy.skills`, `mj_state`, `mj_state.capture`, `mj_state.ledger`, `mj_state.plan`,
`mj_state.records`, `mj_state.task`.
Imported by: `mj_watch`, `mj_watch.act`, `mj_watch.doctrine`, `mj_watch.watch`,
`mj_watch.wiring`.
"""
