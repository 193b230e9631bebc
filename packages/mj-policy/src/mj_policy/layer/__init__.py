"""The layer read strictly (`loader`), described as facts (`facts`, `files`, `target_facts`), its
declarations and front matter, the parse cache, and `init`'s skeleton.

Imports: `mj_policy.adoption`, `mj_policy.context`, `mj_policy.hooks`, `mj_policy.projection`,
`mj_policy.receipt`, `mj_policy.rules`, `mj_core`, `mj_core.credentials`, `mj_core.git`,
`mj_core.schema`, `mj_core.stream`, `mj_core.write`, `mj_core.yaml`.
Imported by: `mj_policy.adoption`, `mj_policy.adr`, `mj_policy.context`, `mj_policy.hooks`,
`mj_policy.plan`, `mj_policy.projection`, `mj_policy.prompts`, `mj_policy.receipt`,
`mj_policy.rules`, `mj_policy.skills`, `majordomus`, `mj_state`, `mj_watch`.
"""
