"""Follows, blocks and presence (issue 45): whom a player follows, whom he blocked, and who is online."""
