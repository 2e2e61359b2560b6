"""Puzzles in the browser (issue 46): the puzzles' tables, their ratings and the solvers', the service."""
