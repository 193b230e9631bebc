"""`watch`: drift in the work (`judge`, `drift_task`, `drift_layer`) over what `facts --for watch`
gathered (`gather`, `facts`).
"""
