"""The one scoped task: its record and its lines in the ledger (`record`, `log`, `state`, `tail`,
`active`), `start` and the rules it is judged by, scope and obligations, `check` (`check_facts`,
`judge`, `explain`, `place`), overlap with other worktrees, the tool's own writes, and evidence.
"""
