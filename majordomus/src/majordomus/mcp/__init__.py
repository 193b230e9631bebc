"""`majordomus mcp serve`: the read-only MCP server over the records and the layer. `early` answers
`initialize` before the SDK loads; `server` and `tools` serve the tools and resources; `shapes`
are their answers; `handover` hands a client's first request on.

Imports: `majordomus`, `mj_core`, `mj_core.credentials`, `mj_core.declaration`, `mj_knowledge`,
`mj_policy.layer`, `mj_state.search`.
Imported by: `majordomus.commands.system`.
"""
