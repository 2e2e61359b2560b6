"""The fixed yardstick: `perfect(respond=0)` plays as it did when the strength figures were measured against it.

Every player's strength is reported as the share of the gap between `rule` and
`perfect(respond=0)` it captures (docs/benchmarks.md).  That player must not
move when the expert it is built on changes, or older figures stop comparing
with newer ones: these are its whole matches (seed 1, with three rule players,
two rotations) in every family, pinned card for card by a digest of every
deal's points.  A change that moves them changes the yardstick; keep the old
behaviour under this name instead.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from barbu.arena.duplicate import rotation_job

PINNED = {  # (family, rotation): (the perfect seat's points over the match, digest of every deal's points)
    ("classic", 0): (510, "2da50636e660fe23"),
    ("classic", 2): (672, "93e2549e142a6e4e"),
    ("italian", 0): (533, "e7cedc6e6f349289"),
    ("italian", 2): (708, "e1804328277ca8d9"),
    ("french", 0): (1040, "e7cdb30c93a9820d"),
    ("french", 2): (180, "a4b08c804a38977e"),
    ("scottish", 0): (620, "450517c0527b73ed"),
    ("scottish", 2): (715, "43b12ed7a3687ea9"),
}


@pytest.mark.parametrize("family,rotation", sorted(PINNED))
def test_the_yardstick_plays_as_when_measured(family, rotation):
    rows, _ = rotation_job(family, ["perfect(respond=0)", "rule", "rule", "rule"], 1, rotation, 28)
    total = sum(r.points[rotation] for r in rows)  # the perfect player sits at seat `rotation`
    digest = hashlib.sha256(json.dumps([[r.contract, list(r.points)] for r in rows]).encode()).hexdigest()[:16]
    assert (total, digest) == PINNED[family, rotation], "the yardstick perfect(respond=0) has moved"
