"""A person may not take a computer player's name (issue 43): computers are named by their place and strength
("West, good player", "Ouest, bon joueur"), so a guest's display name that begins with a place and a comma, in any
language of the house, is refused as names like "Bot 1" are; a name that merely holds a place word is not."""

from __future__ import annotations

import pytest
from test_web_limits import FAST, create
from wsclient import app_client

from barbu.web import Settings


@pytest.mark.parametrize("name", ["West, good player", "Ouest, bon joueur", "nord-est, casuale", "Computer, seat 2"])
def test_a_name_that_reads_as_a_computer_players_is_refused(sqlite_url: str, name: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        tid, _ = create(c)
        r = c.post(f"/api/tables/{tid}/seats", json={"seat": 0, "name": name})
        assert r.status_code == 400 and "kept for computer players" in r.json()["error"], r.text
        for seat, fine in enumerate(("Westley, Jo", "South Park", "Ann, West")):  # a place word alone is a name
            r = c.post(f"/api/tables/{tid}/seats", json={"seat": seat, "name": fine})
            assert r.status_code == 200, (fine, r.text)
