"""`question add` and `question resolve` as facts | judge | writer: `facts` gathers the request
(the text as given, the active task, the index as it is), `judge` refuses or names the line to
add or the question to resolve, `write` writes it after judging it again under the file's lock.

Imports: `mj_state.ledger`, `mj_state.records`, `mj_core`, `mj_core.stream`, `mj_policy.layer`.
Imported by: nothing else of the tool.
"""
