"""The prompt archive the provider hooks write (`archive`), its upkeep (`store`) and the failure
log a person acknowledges (`log`).
"""
