"""The renderers of the MEMORY group: `history`, `decision`, `question`, `prompt`, `search`,
`knowledge`, `skills`, `adr`.
"""
