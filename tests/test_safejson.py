"""Hostile JSON and hostile text: refused with the ordinary errors, never a traceback."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from barbu import Match
from barbu.core.errors import BarbuError, RecordError
from barbu.core.safejson import JsonError, depth, loads
from barbu.records.barbu import read_record, record_lines


def test_ordinary_json_is_read() -> None:
    assert loads('{"type": "act", "action": "QH", "version": 3}') == {"type": "act", "action": "QH", "version": 3}
    assert loads(b"[1, [2, [3]]]") == [1, [2, [3]]]
    assert depth('{"a": "[[[[[[", "b": [[1]]}') == 3  # brackets inside strings do not count


@pytest.mark.parametrize(
    "text, words",
    [
        ('{"type": "act", "action": ' + "[" * 3000, "nested more than"),
        ("[" * 100_000 + "]" * 100_000, "nested more than"),
        ('{"a": ' * 40 + "1" + "}" * 40, "nested more than"),
        ("1" * 5000, "too many digits"),
        ('{"x": NaN}', "not a number JSON allows"),
        ('{"x": Infinity}', "not a number JSON allows"),
        ('{"x": 1', "not valid JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        ("", "not valid JSON"),
    ],
)
def test_hostile_json_is_refused_in_words(text: str | bytes, words: str) -> None:
    with pytest.raises(JsonError, match=words):
        loads(text)


def test_a_record_line_nested_deeply_is_a_malformed_record_line() -> None:
    header = json.dumps({"type": "header", "format": "barbu-record", "version": 1, "rules": "classic"})
    for bad in ("[" * 5000, '{"type": "action", "action": ' + "[" * 3000 + "]" * 3000 + "}"):
        with pytest.raises(RecordError, match="line 1"):
            read_record(io.StringIO(bad + "\n"))
        with pytest.raises(RecordError, match="line 2"):
            read_record(io.StringIO(header + "\n" + bad + "\n"))


def _a_record() -> list[str]:
    m = Match("classic", seed=3)
    while len(m.results) < 1:
        m.play_chance() if m.to_act() == -1 else m.apply(m.legal_actions()[0])
    return [json.dumps(line) for line in record_lines(m)]


RECORD = _a_record()


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=200),
            st.sampled_from(RECORD),
            st.builds(lambda line, cut: line[:cut], st.sampled_from(RECORD), st.integers(0, 400)),
            st.recursive(
                st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                max_leaves=30,
            ).map(json.dumps),
        ),
        max_size=12,
    )
)
def test_the_record_reader_refuses_any_garbage_with_a_record_error(lines: list[str]) -> None:
    try:
        read_record(io.StringIO("\n".join(lines)))
    except RecordError:
        pass


@settings(max_examples=2000, deadline=None)
@given(
    st.text(max_size=80),
    st.sampled_from(["classic", "italian", "french(players=3)", "scottish", "classic(chinese_poker=true)"]),
    st.integers(0, 60),
)
def test_the_action_parser_raises_only_its_own_errors(text: str, rules: str, steps: int) -> None:
    m = Match(rules, seed=steps)
    for _ in range(steps):
        if m.is_over:
            break
        m.play_chance() if m.to_act() == -1 else m.apply(m.legal_actions()[-1])
    before = len(m.history)
    try:
        action = m.parse_action(text)
    except BarbuError:
        return
    try:
        m.apply(action)
    except BarbuError:
        assert len(m.history) == before  # a refused action changes nothing


def test_unclosed_strings_cost_one_pass_not_one_per_quote() -> None:
    # Found in review: with a closing quote required, each unclosed string rescanned the rest of the text,
    # so this 400 KB text took hours.  It must be refused like any other (a hang here fails the run).
    hostile = "[" * 40 + '"' + '\\"' * 200_000
    with pytest.raises(JsonError, match="nested more than"):
        loads(hostile)
    assert depth('[[["a' + '\\"' * 1000) == 3


# ------------------------------------------------------------------ lone surrogates (issue 29)
@pytest.mark.parametrize(
    "text",
    [
        '{"id": "\\ud800"}',
        '{"\\udfff": 1}',
        '["ok", {"a": ["\\uDC00x"]}]',
        '"\\ud83d"',
        '"\\ude00\\ud83d"',
        '{"type": "act", "action": "QH", "id": "a\\ud800b"}',
    ],
)
def test_a_lone_surrogate_anywhere_is_refused_in_words(text: str) -> None:
    with pytest.raises(JsonError, match="lone surrogate") as e:
        loads(text)
    assert e.value.code == "json-surrogate"
    with pytest.raises(JsonError, match="lone surrogate"):
        loads(text.encode())


def test_a_surrogate_pair_is_one_character_and_is_read() -> None:
    assert loads('{"name": "\\ud83d\\ude00", "\\ud83c\\udccf": "\\u00e9"}') == {"name": "😀", "🃏": "é"}


def test_text_that_held_bytes_not_utf8_is_refused_as_such() -> None:
    argument = b'{"a": "\xff"}'.decode("utf-8", "surrogateescape")  # how Python reads such an argument or file
    with pytest.raises(JsonError, match="not UTF-8"):
        loads(argument)


def test_every_refusal_is_coded_and_worded_in_french_and_italian() -> None:
    from barbu.i18n import word_error

    samples = [
        '{"a": ',
        "{a: 1}",
        '{"a" 1}',
        "[1 2]",
        '"abc',
        '"a\x01"',
        '"\\x"',
        "1 2",
        '{"x": NaN}',
        "9" * 5000,
        "[" * 100,
        '"\\ud800"',
        b"\xff",
    ]
    for text in samples:
        with pytest.raises(JsonError) as e:
            loads(text)
        assert e.value.code and e.value.code.startswith("json-"), text
        english = word_error(e.value, "en")
        assert english == str(e.value) and english.startswith("not valid JSON: ")
        for lang in ("fr", "it"):
            assert word_error(e.value, lang) != english, (lang, english)
