"""The dispatcher's renderers: one module per command (`majordomus.cli.module_for`).

What the commands are, their options and their pipelines are declared in
`share/commands.yaml` (`mj_core.declare`); a module here only shows a command's stream.
"""
