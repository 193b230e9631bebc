"""`ratchet check|update` (`command`): existing dirt counted (`facts`), with the tracked tree's
credentials held at zero (`secret_scan`).
"""
