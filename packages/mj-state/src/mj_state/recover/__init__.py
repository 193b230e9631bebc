"""`majordomus recover`: episodes left open, gaps between the logs and the ledger (`logs`),
duplicate records and stray temporaries (`records`).
"""
