"""Prompt assets `.ai/repo/prompts/<name>.md` (`assets`) and their stages (`stages`)."""
