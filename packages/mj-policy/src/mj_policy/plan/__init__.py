"""The plan as files (`model`, `flat`), its derived status (`status`), its listings and their
caches (`stages`, `cache`, `views`), and the briefing's plan facts (`brief`).
"""
