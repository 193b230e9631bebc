"""Every write: atomic and confined to where it may land (`atomic`, `confine`, `tempfiles`), and
locked appends (`appends`).
"""
