"""`knowledge reject` as facts | judge | writer: `facts` reads the candidate as it is, `judge`
refuses or gives the record as it will be rewritten, `write` rewrites it after reading and
judging it again.

Imports: `mj_core`, `mj_core.stream`, `mj_core.write`, `mj_policy.knowledge`.
Imported by: nothing else of the tool.
"""
