"""`majordomus mcp serve`: the read-only MCP server over the records and the layer. `early` answers
`initialize` before the SDK loads; `server` and `tools` serve the tools and resources; `shapes`
are their answers; `handover` hands a client's first request on.
"""
