"""Every write: atomic and confined to where it may land (`atomic`, `write.confine`, `tempfiles`),
and locked appends (`appends`).

Imports: `mj_core`, `mj_core.git`.
Imported by: `mj_core.schema`, `majordomus`, `mj_knowledge`, `mj_policy`, `mj_state`,
`mj_watch`.
"""
