"""The doctrines: the validator registry (`registry`), one module per doctrine or family of them,
and `majordomus doctrine` (`command`).

Imports: `mj_watch`, `mj_watch.act`, `mj_watch.doctor`, `mj_watch.finish`, `mj_watch.wiring`,
`mj_core`, `mj_core.git`, `mj_core.schema`, `mj_core.stream`, `mj_core.yaml`,
`mj_policy.context`, `mj_policy.layer`, `mj_policy.projection`, `mj_policy.prompts`,
`mj_policy.receipt`, `mj_policy.rules`, `mj_state`, `mj_state.finish`, `mj_state.ledger`,
`mj_state.records`, `mj_state.task`.
Imported by: `mj_watch.doctor`, `mj_watch.watch`.
"""
