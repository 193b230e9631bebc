"""The load receipt: every instruction file a client loads for given paths (`gather`, `item`,
`hand`), what reaches it (`reach`, `client_loads`, `client_report`), and the briefing's receipt
(`brief`).
"""
