"""Accounts: names, passwords, sessions and their store."""
