"""`knowledge derive` (and the end of `session close`) as facts | judge | writer: `facts` takes
the episodes off the stream with what the repository holds for them, `judge` derives each
decision's candidate and refuses a conversation, `write` writes the new ones after gathering and
judging again.

Imports: `mj_core`, `mj_core.credentials`, `mj_core.git`, `mj_core.stream`, `mj_core.write`,
`mj_policy.knowledge`.
Imported by: nothing else of the tool.
"""
