"""The hooks the policy asks for and how they are written: git hook lines (`lines`), the provider
hooks' table, settings and answers (`table`, `settings`, `adapters`, `answers`), MCP client
configurations (`mcp_wiring`) and the CI job (`ci_setup`).
"""
