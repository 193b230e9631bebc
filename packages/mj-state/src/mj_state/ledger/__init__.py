"""The ledger `.ai/local/state/ledger.jsonl`: the file and its writer (`store`, `write`), its chain
(`chain`), its readers (`read`, `tail`, `named`), its judges (`scan`, `blocks`, `typed`) and its
rotation (`rotation`).

Imports: `mj_state.session`, `mj_state.task`, `mj_core`, `mj_core.git`, `mj_core.stream`,
`mj_core.write`, `mj_core.yaml`, `mj_policy.layer`.
Imported by: `mj_state`, `mj_state.capture`, `mj_state.capture.acknowledge`,
`mj_state.checkpoint`, `mj_state.decision`, `mj_state.evidence`, `mj_state.finish`,
`mj_state.handover`, `mj_state.plan`, `mj_state.question`, `mj_state.records`,
`mj_state.recover`, `mj_state.remote`, `mj_state.search`, `mj_state.session`, `mj_state.task`,
`majordomus`, `mj_watch`.
"""
