"""The renderers of the SYSTEM group: `init` (with the clients' and the import's parts), `update`,
`doctor`, `recover`, `capture`, `tour`, `watch`, `archive`, `mcp`, `version`, `bench`.

Imports: `majordomus`, `majordomus.mcp`, `majordomus.tour`, `mj_core`, `mj_core.declaration`,
`mj_core.git`, `mj_core.stream`, `mj_policy.adoption`, `mj_policy.context`, `mj_policy.hooks`,
`mj_policy.layer`, `mj_policy.projection`, `mj_state`, `mj_state.capture`,
`mj_state.checkpoint`, `mj_state.session`, `mj_watch.bench`.
Imported by: `majordomus`.
"""
