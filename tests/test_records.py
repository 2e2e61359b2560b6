"""Records: JSON Lines round trip, golden replays, inconsistency and malformed-line reports."""

import io
import json
import random
from pathlib import Path

import pytest

from barbu import CHANCE, Match, RecordError
from barbu.records.barbu import read_record, record_lines, replay, text_form, write_record

GOLDEN = Path(__file__).parent / "golden"


def random_match(rules="classic", seed=3, stop_after=None):
    m = Match(rules, seed)
    rng = random.Random(seed)
    while not m.is_over and (stop_after is None or len(m.history) < stop_after):
        if m.to_act() == CHANCE:
            m.play_chance()
        else:
            m.apply(rng.choice(m.legal_actions()))
    return m


@pytest.mark.parametrize(
    "name,totals,deals",
    [
        ("classic-seed7.jsonl", [76, 167, -282, 39], 28),
        ("quick-ravage-seed11.jsonl", [-320, -202, 416, 106], 32),
    ],
)
def test_golden_records_replay_to_exact_scores(name, totals, deals):
    rep = replay(read_record(GOLDEN / name))
    assert rep.consistent, rep.inconsistencies
    assert rep.match.is_over and rep.match.totals == totals and len(rep.match.results) == deals


def test_golden_classic_first_deals_by_hand():
    """Deal 1: Trumps in spades, 0 doubled the dealer 3 and was redoubled: (20 - 0) x 2 moves 40 points."""
    m = replay(read_record(GOLDEN / "classic-seed7.jsonl")).match
    d1, d2 = m.results[0], m.results[1]
    assert d1.contract == "trumps" and d1.trump == 0
    assert d1.base == (20, 15, 30, 0) and d1.scores == (60, 15, 30, -40)
    assert d2.contract == "domino" and d2.finishing == (0, 1, 2, 3)
    # 0 and 2 both doubled the dealer 3, who redoubled both: 3 pays (45+5)*2 to 0 and (5+5)*2 to 2.
    assert d2.base == (45, 20, 5, -5) and d2.scores == (145, 20, 25, -125)


def test_write_read_replay_round_trip(tmp_path):
    m = random_match(seed=5)
    path = tmp_path / "g.jsonl"
    write_record(m, path, {"event": "test"})
    rec = read_record(path)
    assert rec.header["event"] == "test" and rec.seed == 5
    rep = replay(rec)
    assert rep.consistent
    assert rep.match.totals == m.totals
    assert [r.scores for r in rep.match.results] == [r.scores for r in m.results]
    assert [r.hands for r in rep.match.results] == [r.hands for r in m.results]


def test_unfinished_record_resumes_at_the_same_action(tmp_path):
    m = random_match(seed=9, stop_after=700)
    path = tmp_path / "partial.jsonl"
    write_record(m, path)
    back = replay(read_record(path)).match
    assert back.history == m.history
    assert back.legal_actions() == m.legal_actions()
    assert back.to_act() == m.to_act()
    # Chance events after resuming are the same as they would have been.
    while m.to_act() != CHANCE:
        a = m.legal_actions()[0]
        m.apply(a)
        back.apply(a)
    assert m.sample_chance() == back.sample_chance()


def test_tampered_score_is_reported_naming_the_deal(tmp_path):
    lines = record_lines(random_match(seed=4))
    for obj in lines:
        if obj["type"] == "deal" and obj["number"] == 6:
            obj["scores"][0] += 1
    rep = replay(read_record(io.StringIO("".join(json.dumps(x) + "\n" for x in lines))))
    assert not rep.consistent
    assert any(p.startswith("deal 6 ") for p in rep.inconsistencies)


def _lines_with(edit):
    lines = [json.dumps(x) for x in record_lines(random_match(seed=2, stop_after=120))]
    edit(lines)
    return io.StringIO("\n".join(lines) + "\n")


def test_malformed_json_names_the_line():
    def edit(lines):
        lines[4] = lines[4][:-3]

    with pytest.raises(RecordError, match=r"^line 5: not valid JSON"):
        read_record(_lines_with(edit))


def test_illegal_action_names_the_line():
    def edit(lines):
        for i, raw in enumerate(lines):
            obj = json.loads(raw)
            if (
                obj["type"] == "action"
                and obj["action"] == "contract trumps"
                or obj["type"] == "action"
                and obj["action"].startswith("contract")
            ):
                obj["action"] = "contract nonsense"
                lines[i] = json.dumps(obj)
                edit.line = i + 1
                return

    rec = read_record(_lines_with(edit))
    with pytest.raises(RecordError, match=rf"^line {edit.line}: action 'contract nonsense' cannot be replayed"):
        replay(rec)


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "empty"),
        ('{"type": "action", "action": "QH"}\n', "line 1: a record starts with a header"),
        ('{"type": "header", "format": "other"}\n', "line 1: not a barbu record"),
        ('{"type": "header", "format": "barbu-record", "version": 9}\n', "line 1: record version 9"),
        (
            '{"type": "header", "format": "barbu-record", "version": 1, "rules": "classic(x=1)"}\n',
            "line 1: bad ruleset: unknown option 'x'",
        ),
        (
            '{"type": "header", "format": "barbu-record", "version": 1, "rules": "classic"}\n[1, 2]\n',
            "line 2: each line must be a JSON object",
        ),
        (
            '{"type": "header", "format": "barbu-record", "version": 1, "rules": "classic"}\n{"type": "what"}\n',
            "line 2: unknown line type 'what'",
        ),
        (
            '{"type": "header", "format": "barbu-record", "version": 1, "rules": "classic"}\n'
            '{"type": "deal", "number": 1, "scores": ["x"]}\n',
            "line 2: deal scores must be a list of whole numbers",
        ),
    ],
)
def test_malformed_records(text, message):
    with pytest.raises(RecordError, match=message):
        read_record(io.StringIO(text))


def test_text_form_has_tags_and_tricks():
    m = random_match(seed=6)
    text = text_form(m)
    assert text.startswith("% barbu match record")
    assert '[Rules "classic"]' in text and '[Deal "28"]' in text and "[Result " in text
    one = text_form(m, deal=3)
    assert '[Deal "3"]' in one and '[Deal "4"]' not in one


def test_writing_is_atomic(tmp_path):
    path = tmp_path / "g.jsonl"
    write_record(random_match(seed=1, stop_after=50), path)
    assert not (tmp_path / "g.jsonl.tmp").exists()
    assert read_record(path).actions
