"""The renderers of the RULES group: `rules`, `receipt`, `doctrine`, `ratchet`."""
