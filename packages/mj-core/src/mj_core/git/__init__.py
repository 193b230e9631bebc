"""The questions the tool asks git (`questions`), how git is run (`run`, `stdin`), and where a
checkout stands read from git's own files when their layout is plain (`layout`, `head`,
`where`).

Imports: `mj_core`.
Imported by: `mj_core.stream`, `mj_core.write`, `majordomus`, `mj_knowledge`, `mj_policy`,
`mj_state`, `mj_watch`.
"""
