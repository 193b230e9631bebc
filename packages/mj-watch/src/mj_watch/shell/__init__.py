"""The POSIX shell grammar: tokens (`lexer`), quoting and expansions (`expand`), the parser and its
compound commands (`parser`, `compound`, `reading`), and the tree they build (`syntax`).

Imports: nothing else of the tool.
Imported by: `mj_watch.act`, `mj_watch.wiring`.
"""
