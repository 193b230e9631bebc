"""The plan's lifecycle in this checkout: its claims across worktrees (`claims`, `lock`), its
markers against the ledger (`markers`), and `plan start|verify|done` (`write`).
"""
