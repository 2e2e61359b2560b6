"""The daily deals: attempts, boards and results, and their store."""
