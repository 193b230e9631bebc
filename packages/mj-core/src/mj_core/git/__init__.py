"""The questions the tool asks git (`questions`), how git is run (`run`, `stdin`), and where a
checkout stands read from git's own files when their layout is plain (`layout`, `head`,
`where`).
"""
