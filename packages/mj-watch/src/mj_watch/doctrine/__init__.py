"""The doctrines: the validator registry (`registry`), one module per doctrine or family of them,
and `majordomus doctrine` (`command`).
"""
