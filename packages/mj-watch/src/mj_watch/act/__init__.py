"""The moment of action: the hook a client runs before each tool call (`hook`), what the call would
write (`intent`, `apply_patch`, `shell_writes`, `shell_verbs`, `facts`), its judgement
(`judge`), and which clients can be held so (`reach`).
"""
