"""`handover` as facts | judge | writer: `facts` gathers the request (the active task, the body
as given or derived, the policy's required sections), `judge` refuses or gives the verdict,
`write` writes the record that verdict names after judging it again over this checkout.

Imports: `mj_state.ledger`, `mj_state.records`, `mj_core`, `mj_core.stream`, `mj_policy.layer`.
Imported by: nothing else of the tool.
"""
