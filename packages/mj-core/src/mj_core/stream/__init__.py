"""The stream protocol every stage keeps: JSON Lines (`jsonl`), a stage's context and its records'
stream (`stage`, `protocol`), and records read from a file held to their kind's schema
(`check`).

Imports: `mj_core`, `mj_core.git`, `mj_core.yaml`.
Imported by: `mj_core`, `mj_core.declaration`, `mj_core.schema`, `majordomus`, `mj_context`,
`mj_knowledge`, `mj_policy`, `mj_state`, `mj_watch`.
"""
