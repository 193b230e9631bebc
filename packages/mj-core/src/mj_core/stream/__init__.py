"""The stream protocol every stage keeps: JSON Lines (`jsonl`), a stage's context and its records'
stream (`stage`, `protocol`), and records read from a file held to their kind's schema
(`check`).
"""
