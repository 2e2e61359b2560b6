"""The scorekeeper on the server: kept games and their store."""
