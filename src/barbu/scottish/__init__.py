"""The Scottish 32-card game (seed 004): its match, the Unused Pack, the Silly Round, Patience, pass-ons, the scoresheet."""

from . import family  # noqa: F401  (registers the family and its preset)
