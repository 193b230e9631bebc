"""Skills as files (`model`), as projections (`projection`), and read back (`stages`).

Imports: `mj_policy.layer`, `mj_core`, `mj_core.stream`, `mj_core.yaml`.
Imported by: `mj_policy.projection`, `mj_watch`.
"""
