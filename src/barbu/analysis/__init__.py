"""Analysis of played deals: what each decision cost (`review`)."""

from .review import Decision, Review, review_match

__all__ = ["Decision", "Review", "review_match"]
