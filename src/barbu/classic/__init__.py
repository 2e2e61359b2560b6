"""The Barbu family (seeds 000-002): rulesets and presets, contracts, the match, views and the sampler."""

from . import presets  # noqa: F401  (registers the families and presets)
