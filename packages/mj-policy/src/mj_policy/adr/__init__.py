"""Architecture decision records as files (`model`), read back (`stages`), and the numbers claimed
in this tree, the sibling worktrees and every ref (`claims`, `trees`).
"""
