"""The renderers of the RULES group: `rules`, `receipt`, `doctrine`, `ratchet`.

Imports: `majordomus`.
Imported by: nothing else of the tool.
"""
