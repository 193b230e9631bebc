"""The walkthrough's world (`world`: a scratch repository and its steps) and what it shows of the
projections (`projections`).

Imports: nothing else of the tool.
Imported by: `majordomus.commands.system`.
"""
