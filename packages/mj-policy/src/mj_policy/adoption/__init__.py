"""`init --import`: the instruction files a repository already has, cut into pieces (`read`,
`split`, `front`), made into project rules (`plan`, `cover`, `policy`, `write`), and handed over
to `update` (`handover`).
"""
