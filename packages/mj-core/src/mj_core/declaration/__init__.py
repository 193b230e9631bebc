"""Every command and stage declared once: `share/commands.yaml` generated into
`share/commands.json` (`generate`), read whole (`commands`) or one entry at a time (`one`).
"""
