"""The scorekeeper: scores of deals played with real cards, entered as people count them at the table.

Every number comes from the engine's own scoring code: an entered deal is fed
to a real match (contract, trumps or rank, doubles) and finished from the
counted outcome instead of from played cards.
"""
