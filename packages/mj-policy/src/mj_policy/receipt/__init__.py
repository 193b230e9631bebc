"""The load receipt: every instruction file a client loads for given paths (`gather`, `item`,
`hand`), what reaches it (`reach`, `client_loads`, `client_report`), and the briefing's receipt
(`brief`).

Imports: `mj_policy`, `mj_policy.layer`, `mj_policy.projection`, `mj_policy.rules`, `mj_core`,
`mj_core.git`, `mj_core.stream`.
Imported by: `mj_policy.layer`, `mj_policy.projection`, `mj_policy.rules`, `mj_watch`.
"""
