"""The ledger `.ai/local/state/ledger.jsonl`: the file and its writer (`store`, `write`), its chain
(`chain`), its readers (`read`, `tail`, `named`), its judges (`scan`, `blocks`, `typed`) and its
rotation (`rotation`).
"""
