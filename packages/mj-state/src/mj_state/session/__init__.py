"""Execution episodes: the store (`store`), opened with the briefing (`start_facts`,
`start_judge`, `start`: facts | judge | writer), closed with an immutable record (`close_facts`,
`close_judge`, `close`, the same; `record`, `envelope`), read back and archived (`read`,
`archive`), and an episode's facts (`episode_facts`).

Imports: `mj_state`, `mj_state.ledger`, `mj_state.records`, `mj_state.task`, `mj_core`,
`mj_core.git`, `mj_core.schema`, `mj_core.stream`, `mj_core.write`, `mj_core.yaml`,
`mj_policy.layer`.
Imported by: `mj_state.capture`, `mj_state.ledger`, `mj_state.records`, `mj_state.recover`,
`mj_state.search`, `majordomus`.
"""
