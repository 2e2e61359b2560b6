"""Duplicate events: rounds, tables, standings, their store and their push."""
