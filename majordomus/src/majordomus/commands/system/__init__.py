"""The renderers of the SYSTEM group: `init` (with the clients' and the import's parts), `update`,
`doctor`, `recover`, `capture`, `tour`, `watch`, `archive`, `mcp`, `version`, `bench`.
"""
