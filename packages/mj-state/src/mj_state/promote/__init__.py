"""`knowledge promote` as facts | judge | writer: `facts` reads the candidate, this checkout's
active task and the evidence on stdin, `judge` refuses or gives the curated record as it will
be written, `write` writes it (and removes the candidate) after reading and judging it again.

Imports: `mj_state.records`, `mj_core`, `mj_core.stream`, `mj_core.write`,
`mj_policy.knowledge`, `mj_policy.layer`.
Imported by: nothing else of the tool.
"""
