"""The moment of action: the hook a client runs before each tool call (`hook`), what the call would
write (`intent`, `apply_patch`, `shell_writes`, `shell_verbs`, `facts`), its judgement
(`judge`), and which clients can be held so (`reach`).

Imports: `mj_watch.doctor`, `mj_watch.shell`, `mj_core`, `mj_policy.hooks`, `mj_policy.layer`,
`mj_state.capture`, `mj_state.ledger`, `mj_state.task`.
Imported by: `mj_watch.doctor`, `mj_watch.doctrine`, `majordomus`.
"""
