"""Execution episodes: the store (`store`), opened with the briefing (`start`), closed with an
immutable record (`close`, `record`, `envelope`), read back and archived (`read`, `archive`),
and an episode's facts (`episode_facts`).
"""
