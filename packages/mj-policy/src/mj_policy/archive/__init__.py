"""`majordomus archive`: the plan of what git's index holds by profile (`stages`) and the archive
file with its manifest and restore script (`file`).
"""
