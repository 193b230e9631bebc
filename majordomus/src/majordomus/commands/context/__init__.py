"""The renderers of the CONTEXT group: `session`, `context`, `checkpoint`, `handover`."""
