"""Context documents (`.ai/**/README.md`): discovered and checked (`docs`), as one tree (`tree`),
the chain for a path (`chain`), against what changed (`sync`), and their stages (`stages`).

Imports: `mj_policy.layer`, `mj_policy.projection`, `mj_core`, `mj_core.git`, `mj_core.schema`,
`mj_core.stream`, `mj_core.yaml`.
Imported by: `mj_policy.adr`, `mj_policy.layer`, `majordomus`, `mj_state`, `mj_watch`.
"""
