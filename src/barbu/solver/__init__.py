"""The solver floor: a compiled core on card bitmasks with its pure-Python twin, and an exact solver.

`barbu.solver.fast` is the core to use (compiled when built, pure otherwise);
`barbu.solver.position` turns an engine match into the core's plain data.
"""
