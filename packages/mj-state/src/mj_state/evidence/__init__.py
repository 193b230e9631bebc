"""`evidence` as facts | judge | writer: `facts` gathers the request (the options as given, the
active task and what it promised, the artifact as this checkout and the task's start commit
hold it, the policy's verification), `judge` refuses or gives the verdict before anything runs,
`write` judges it again here, then runs the command or hashes the file and appends the line.

Imports: `mj_state.finish`, `mj_state.ledger`, `mj_state.task`, `mj_core`, `mj_core.git`,
`mj_core.stream`, `mj_policy.layer`.
Imported by: nothing else of the tool.
"""
