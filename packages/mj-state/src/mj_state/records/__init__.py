"""The durable records: handovers and checkpoints (`store`, `checkpoint`, `handover`, `bodies`,
`derive`, `resolve`, `prune`), decisions and questions (`decisions`, `decision_log`,
`questions`, `asking`, `write`, `pairs`), references, ADR stages and knowledge promotion.
"""
