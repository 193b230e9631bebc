"""The policy projected into each provider's files: rendered from templates (`render`, `templates`,
`language`), the rules each carries (`rules`, `plan`, `dedup`, `share`), stamped and judged on
disk (`stamps`, `targets`, `verdict`, `region`), and `update` (`update_plan`, then its stages
`update_facts`, `update_judge`, `update_write`).

Imports: `mj_policy`, `mj_policy.adoption`, `mj_policy.hooks`, `mj_policy.layer`,
`mj_policy.receipt`, `mj_policy.rules`, `mj_policy.skills`, `mj_core`, `mj_core.git`,
`mj_core.stream`, `mj_core.write`, `mj_core.yaml`.
Imported by: `mj_policy.adoption`, `mj_policy.context`, `mj_policy.layer`, `mj_policy.receipt`,
`mj_policy.rules`, `majordomus`, `mj_state`, `mj_watch`.
"""
