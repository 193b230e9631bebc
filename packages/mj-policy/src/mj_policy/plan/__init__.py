"""The plan as files (`model`, `flat`), its derived status (`status`), its listings and their
caches (`stages`, `cache`, `views`), and the briefing's plan facts (`brief`).

Imports: `mj_policy.layer`, `mj_core`, `mj_core.git`, `mj_core.schema`, `mj_core.stream`,
`mj_core.write`, `mj_core.yaml`.
Imported by: `majordomus`, `mj_state`, `mj_watch`.
"""
