"""The renderers of the TASK group: `start`, `check`, `finish`, `evidence`, `plan`, `sync`,
`claims`, `verify`.
"""
