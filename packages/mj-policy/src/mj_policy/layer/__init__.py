"""The layer read strictly (`loader`), described as facts (`facts`, `files`, `target_facts`), its
declarations and front matter, the parse cache, and `init`'s skeleton.
"""
