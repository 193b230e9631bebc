"""The strict YAML subset: the reader (`strict`, from PyYAML's events in `events`, or the fast line
readers `fast` and `flat`), scalar typing (`scalars`) and the writer (`write`).

Imports: `mj_core`.
Imported by: `mj_core.declaration`, `mj_core.schema`, `mj_core.stream`, `majordomus`,
`mj_policy`, `mj_state`, `mj_watch`.
"""
