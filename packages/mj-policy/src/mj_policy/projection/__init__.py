"""The policy projected into each provider's files: rendered from templates (`render`, `templates`,
`language`), the rules each carries (`rules`, `plan`, `dedup`, `share`), stamped and judged on
disk (`stamps`, `targets`, `verdict`, `region`), and `update` (`update`, `update_check`).
"""
