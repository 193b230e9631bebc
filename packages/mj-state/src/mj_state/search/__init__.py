"""`majordomus search` (`scan`, over `corpus` and the knowledge nodes in `knowledge`), and the
catalogue `majordomus mcp` serves (`catalogue`, `catalogue_entry`, `identities`).
"""
