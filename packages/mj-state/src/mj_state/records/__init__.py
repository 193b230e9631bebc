"""The durable records: handovers and checkpoints (`store`, `checkpoint`, `bodies`, `derive`,
`resolve`, `prune`; a handover's stages are `mj_state.handover`), decisions and questions
(`decisions`, `decision_log`, `questions`, `asking`, `write`, `pairs`; the stages of
`decision add`, `question add` and `question resolve` are `mj_state.decision` and
`mj_state.question`), references,
ADR stages and knowledge promotion.

Imports: `mj_state`, `mj_state.finish`, `mj_state.ledger`, `mj_state.remote`,
`mj_state.session`, `mj_state.task`, `mj_core`, `mj_core.credentials`, `mj_core.git`,
`mj_core.schema`, `mj_core.stream`, `mj_core.write`, `mj_core.yaml`, `mj_policy.adr`,
`mj_policy.knowledge`, `mj_policy.layer`, `mj_policy.rules`.
Imported by: `mj_state`, `mj_state.checkpoint`, `mj_state.decision`, `mj_state.finish`,
`mj_state.handover`, `mj_state.promote`, `mj_state.question`, `mj_state.recover`,
`mj_state.search`, `mj_state.session`, `mj_state.task`, `mj_watch`.
"""
