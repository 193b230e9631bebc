"""The strict YAML subset: the reader (`strict`, from PyYAML's events in `events`, or the fast line
readers `fast` and `flat`), scalar typing (`scalars`) and the writer (`write`).
"""
