"""Card puzzles from real deals: positions where one card is best, proved by the exact solver (docs/puzzles.md).

`model` holds the puzzle itself, `library` its files and the day's puzzle, `rating` the ratings of puzzles and
solvers; `find`, `single`, `mine` and `make` find them in records, `check` proves them again."""
