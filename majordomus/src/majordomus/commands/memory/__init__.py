"""The renderers of the MEMORY group: `history`, `decision`, `question`, `prompt`, `search`,
`knowledge`, `skills`, `adr`.

Imports: `majordomus`, `mj_core`, `mj_core.stream`, `mj_policy.knowledge`.
Imported by: nothing else of the tool.
"""
