"""The HTTP layer: one router per domain, payloads decoded once, refusals given their status."""
