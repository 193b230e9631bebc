"""`mcp install` as facts | judge | writer: `facts` reads the client's configuration file as it
is, `judge` gives the entry to print or the file as `--write` would leave it (or the refusal),
`write` writes that file after reading and judging it again.

Imports: `mj_policy`, `mj_policy.hooks`, `mj_core`, `mj_core.stream`, `mj_core.write`.
Imported by: nothing else of the tool.
"""
