"""Architecture decision records as files (`model`), read back (`stages`), and the numbers claimed
in this tree, the sibling worktrees and every ref (`claims`, `trees`).

Imports: `mj_policy.context`, `mj_policy.layer`, `mj_core`, `mj_core.git`, `mj_core.stream`,
`mj_core.write`, `mj_core.yaml`.
Imported by: `mj_state`, `mj_watch`.
"""
