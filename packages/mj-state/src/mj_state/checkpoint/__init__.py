"""`checkpoint` as facts | judge | writer: `facts` gathers the request (the active task, the
body as piped or derived, the policy's cap), `judge` refuses or gives the verdict, `write`
writes the note that verdict names after judging it again over this checkout; `reading` is
`--show` and `--list`.

Imports: `mj_state.ledger`, `mj_state.records`, `mj_state.remote`, `mj_core`, `mj_core.stream`,
`mj_policy.layer`.
Imported by: `majordomus`.
"""
