"""The state side of `finish`: its facts (`facts`, `push_range`, `substance`), the verification it
runs (`verification`, `steps`), and its one write (`write`).
"""
