"""The POSIX shell grammar: tokens (`lexer`), quoting and expansions (`expand`), the parser and its
compound commands (`parser`, `compound`, `reading`), and the tree they build (`syntax`).
"""
