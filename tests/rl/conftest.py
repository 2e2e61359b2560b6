"""The training adapters need the optional ``rl`` extra; without it these tests are skipped, not failed."""

import pytest

for name in ("numpy", "gymnasium", "pettingzoo"):
    pytest.importorskip(name)
