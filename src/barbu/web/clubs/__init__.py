"""Clubs: members, roles, invitations, seasons and their store."""
