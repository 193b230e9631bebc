"""`capture acknowledge` as facts | judge | writer: `facts` reads the hooks' failure log, `judge`
names the lines to acknowledge, `write` records them in the ledger and takes them out of the
log, under its lock, when the log still begins with them.

Imports: `mj_state.capture`, `mj_state.ledger`, `mj_core`, `mj_core.stream`, `mj_core.write`,
`mj_policy.layer`.
Imported by: nothing else of the tool.
"""
