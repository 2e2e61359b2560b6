"""A finished match replayed with its analysis and double-dummy tables."""
