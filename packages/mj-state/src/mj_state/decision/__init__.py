"""`decision add` as facts | judge | writer: `facts` gathers the request (the fields as given,
the active task, git's HEAD, the titles recorded so far), `judge` refuses or gives the entry
as it will be written, `write` appends it after judging it again under the log's lock.

Imports: `mj_state.ledger`, `mj_state.records`, `mj_core`, `mj_core.git`, `mj_core.stream`,
`mj_policy.layer`.
Imported by: nothing else of the tool.
"""
