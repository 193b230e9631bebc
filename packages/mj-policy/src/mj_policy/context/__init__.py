"""Context documents (`.ai/**/README.md`): discovered and checked (`docs`), as one tree (`tree`),
the chain for a path (`chain`), against what changed (`sync`), and their stages (`stages`).
"""
