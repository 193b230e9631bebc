"""`init --import`: the instruction files a repository already has, cut into pieces (`read`,
`split`, `front`), made into project rules (`plan`, `cover`, `policy`; the stages `adopt_facts`,
`adopt_judge`, `adopt_write`), and handed over to `update` (`handover`).

Imports: `mj_policy`, `mj_policy.layer`, `mj_policy.projection`, `mj_policy.rules`, `mj_core`,
`mj_core.git`, `mj_core.stream`, `mj_core.write`, `mj_core.yaml`.
Imported by: `mj_policy.layer`, `mj_policy.projection`, `majordomus`.
"""
