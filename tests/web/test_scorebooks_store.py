"""Kept games in the database, SQLite and PostgreSQL: edit keys, read-only links, versions, owners."""

from __future__ import annotations

import pytest

from barbu.scorekeeper import keeper_from_dict, new_keeper
from barbu.web.scorebooks.store import ScorebookError, Scorebooks


def test_a_kept_game_is_stored_shared_read_only_and_never_overwritten_unseen(db_url):
    books = Scorebooks.open(db_url)
    k = new_keeper("classic", ["Ann", "Bob", "Cy", "Di"], 1)
    book, key = books.create(k.to_dict(), "Friday at Ann's", owner="browser-1")
    assert book.version == 1 and book.view_id != book.id and key not in (book.id, book.view_id)
    k.add({"contract": "trumps", "trump": "S", "doubles": [], "outcome": {"tricks": [3, 4, 3, 3]}})
    saved = books.save(book.id, key, k.to_dict(), book.version)
    assert saved.version == 2
    with pytest.raises(ScorebookError) as stale:  # a second phone saving from the old version
        books.save(book.id, key, k.to_dict(), book.version)
    assert stale.value.status == 409
    with pytest.raises(ScorebookError) as forbidden:  # the read-only link is not an edit key
        books.save(book.id, book.view_id, k.to_dict(), saved.version)
    assert forbidden.value.status == 403
    shared = books.get_view(book.view_id)
    assert keeper_from_dict(shared.data).totals == [15, 20, 15, 15]
    assert [b.id for b in books.owned_by("browser-1")] == [book.id] and books.owned_by("browser-2") == []
    with pytest.raises(ScorebookError) as missing:
        books.get_view("nope")
    assert missing.value.status == 404
    books.delete(book.id, key)
    assert books.owned_by("browser-1") == []
