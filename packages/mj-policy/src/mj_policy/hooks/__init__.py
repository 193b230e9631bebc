"""The hooks the policy asks for and how they are written: git hook lines (`lines`), the provider
hooks' table, settings and answers (`table`, `settings`, `adapters`, `answers`), MCP client
configurations (`mcp_wiring`) and the CI job (`ci_setup`).

Imports: `mj_policy`, `mj_policy.layer`, `mj_core`, `mj_core.git`, `mj_core.write`,
`mj_core.yaml`.
Imported by: `mj_policy.layer`, `mj_policy.mcp_install`, `mj_policy.projection`, `majordomus`,
`mj_watch`.
"""
