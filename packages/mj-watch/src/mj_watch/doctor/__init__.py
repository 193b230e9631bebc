"""`doctor`: its facts (`facts`, `facts_view`), its judge (`judge`), and its looks at capture, MCP,
declarations, knowledge, the plan, records, reach, the remote, confinement, probes and its own
time.
"""
