"""`majordomus search` (`scan`, over `corpus` and the knowledge nodes in `knowledge`), and the
catalogue `majordomus mcp` serves (`catalogue`, `catalogue_entry`, `identities`).

Imports: `mj_state.ledger`, `mj_state.records`, `mj_state.session`, `mj_core`,
`mj_core.credentials`, `mj_core.git`, `mj_core.stream`, `mj_policy.knowledge`,
`mj_policy.layer`.
Imported by: `majordomus`.
"""
