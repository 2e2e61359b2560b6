"""The guided first deal: each lesson played to its end, wrong and illegal cards refused with the lesson,
replay equal to stepwise play, and nothing of another seat's hand in any state."""

from __future__ import annotations

from typing import Iterator

import pytest

from barbu.core.errors import BarbuError
from barbu.guide.lesson import KEYS, LESSON_CODE, LessonPlay, LessonState, lesson, replay, start
from barbu.i18n import translator


def paths(key: str, done: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every way through a lesson with the actions its steps accept."""
    state = replay(key, done)
    if state.finished:
        yield done
        return
    assert state.your_turn and state.expected, (key, done)
    for action in state.expected:
        yield from paths(key, done + (str(action),))


def states(key: str) -> Iterator[LessonState]:
    for actions in paths(key):
        for k in range(len(actions) + 1):
            yield replay(key, actions[:k])


@pytest.mark.parametrize("key", KEYS)
def test_every_way_through_a_lesson_ends_it(key):
    for actions in paths(key):
        state = replay(key, actions)
        assert state.finished and not state.your_turn and not state.legal and state.refusal is None
        assert state.actions == actions
        assert len(actions) == len(lesson(key).steps)
        assert state.message == lesson(key).done


def test_the_lessons_come_in_order_and_end_with_a_real_match():
    assert KEYS == ("no-queens", "doubling", "trumps", "domino")
    ends = [replay(k, next(paths(k))) for k in KEYS]
    assert [s.next_lesson for s in ends] == [*KEYS[1:], None]
    assert [s.number for s in ends] == [1, 2, 3, 4] and {s.total for s in ends} == {4}
    assert "real match against the computer" in ends[-1].message.worded()


def test_each_lesson_plays_its_kind_of_contract():
    first = {k: replay(k, next(paths(k))).view for k in KEYS}
    assert first["no-queens"].contract == "no-queens" and first["no-queens"].tricks
    assert first["doubling"].doubles and first["doubling"].rules == "classic"
    assert first["trumps"].contract == "trumps" and first["trumps"].trump == 0
    assert first["domino"].contract == "domino" and first["domino"].rank == 6  # the eights


def test_a_wrong_but_legal_card_is_refused_with_the_lesson_and_changes_nothing():
    play = start("no-queens")
    before = play.state()
    assert "AD" in map(str, before.legal) and "AD" not in map(str, before.expected)
    refusal = play.act("AD")
    after = play.state()
    assert refusal is not None and refusal.code == LESSON_CODE and refusal.error is None
    assert refusal.lesson == lesson("no-queens").steps[0].why
    assert "Duck" in refusal.lesson.worded()
    assert after.view == before.view and after.actions == () and after.refusal == refusal
    assert play.act("TD") is None and play.state().refusal is None


@pytest.mark.parametrize(
    "key, done, tried, code",
    [
        ("no-queens", (), "QS", "follow-suit"),
        ("no-queens", (), "KC", "you-do-not-hold"),
        ("no-queens", (), "zz", "not-a-card"),
        ("doubling", (), "double 0", "double-self"),
        ("trumps", ("contract trumps", "trump S", "AS", "4H"), "4S", "must-overtrump"),
        ("domino", ("contract domino", "rank 8"), "AS", "domino-row-not-started"),
        ("domino", ("contract domino", "rank 8", "8S"), "pass", "domino-pass-with-card"),
    ],
)
def test_an_illegal_action_gets_the_engines_code_and_the_lesson(key, done, tried, code):
    before = replay(key, done)
    state = replay(key, done + (tried,))
    assert state.refusal is not None and state.refusal.code == code and state.refusal.error is not None
    assert state.refusal.lesson == lesson(key).steps[len(done)].why
    assert state.view == before.view and state.actions == done


def test_a_refused_action_in_the_middle_of_a_replay_is_skipped():
    state = replay("trumps", ["contract no-queens", "contract trumps", "trump S"])
    assert state.actions == ("contract trumps", "trump S") and state.refusal is None


def test_acting_after_the_end_is_refused():
    actions = next(paths("doubling"))
    state = replay("doubling", actions + ("4S",))
    assert state.finished and state.refusal is not None and state.refusal.code == "lesson-over"


def test_an_unknown_lesson_is_a_plain_error():
    with pytest.raises(BarbuError) as e:
        replay("no-such", [])
    assert e.value.code == "unknown-lesson" and "no-queens" in str(e.value)


@pytest.mark.parametrize("key", KEYS)
def test_replay_of_a_prefix_equals_stepwise_play(key):
    for actions in paths(key):
        play = start(key)
        for k, action in enumerate(actions):
            assert play.state() == replay(key, actions[:k])
            assert play.act(action) is None
            play.advance()
        assert play.state() == replay(key, actions)


@pytest.mark.parametrize("key", KEYS)
def test_the_table_can_play_the_other_seats_one_at_a_time(key):
    """The terminal's way: the others' moves one by one, as `advance` makes them."""
    for actions in paths(key):
        play = LessonPlay(key)
        for action in actions:
            while (seat := play.other_to_act()) is not None:
                play.apply_other(seat, play.move_for(seat))
            assert play.act(action) is None
        while (seat := play.other_to_act()) is not None:
            play.apply_other(seat, play.move_for(seat))
        assert play.state() == replay(key, actions)


@pytest.mark.parametrize("key", KEYS)
def test_no_state_shows_another_seats_hand(key):
    for state in states(key):
        v = state.view
        assert v.seat == 0 and all(k == 0 for k in v.known[1:]) and all(not r.hands for r in v.results)
        shown = v.hand | v.played
        # every card a message or a lesson names is the learner's own or already on the table
        for said in (
            state.message,
            *(
                lesson(key).steps[i].why
                for i in range(len(state.actions), len(state.actions) + 1)
                if i < len(lesson(key).steps)
            ),
        ):
            for name, value in said.params:
                if f"{{{name}:card" not in said.text:
                    continue  # a count ("{seen:count} of the {total:count} contracts"), not a card
                for card in value if isinstance(value, tuple) else (value,):  # "{fits:cards}": several
                    assert shown >> card & 1, (key, state.actions, said.text, name)


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_every_text_is_worded_in_each_language(lang):
    words = translator(lang)
    for key in KEYS:
        lsn = lesson(key)
        for said in (lsn.done, *(s.explain for s in lsn.steps), *(s.why for s in lsn.steps)):
            text = said.worded(words)
            assert text and "{" not in text
            if lang != "en":
                assert text != said.worded(), (lang, said.text)
