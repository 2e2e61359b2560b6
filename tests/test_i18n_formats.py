"""The standard library's numbers and dates (`barbu.i18n.formats`) read as Babel's, for every shape the game
prints, in English, French and Italian; Babel is needed only to check them."""

from __future__ import annotations

import random
from datetime import date, datetime
from decimal import Decimal

import pytest

from barbu.i18n import LANGUAGES, translator
from barbu.i18n.formats import format_decimal, format_medium_date, format_number, format_short_time

babel_numbers = pytest.importorskip("babel.numbers")
babel_dates = pytest.importorskip("babel.dates")

#: The shapes the game prints: (Babel's pattern or None for the language's default, the same in formats).
SHAPES = [
    (None, dict(places=0, most=3)),  # i18n.number: scores, counts
    ("+#,##0.0;-#,##0.0", dict(places=1, sign=True)),  # the hint's mean points
    ("#,##0.0", dict(places=1)),  # the analysis' points lost
    ("+0.00;-0.00", dict(places=2, grouped=False, sign=True)),  # the arena's means
    ("0.00", dict(places=2, grouped=False)),  # the arena's half intervals
    ("+0;-0", dict(places=0, grouped=False, sign=True)),
    ("0", dict(places=0, grouped=False)),
    ("+0.0;-0.0", dict(places=1, grouped=False, sign=True)),
    ("0.0", dict(places=1, grouped=False)),
]


def values() -> list:
    fixed = [
        0,
        1,
        -1,
        7,
        999,
        1000,
        -1000,
        1250,
        -1250,
        12345,
        100000,
        -1234567,
        10**9,
        0.0,
        -0.0,
        0.04,
        -0.04,
        0.05,
        -0.05,
        0.15,
        0.25,
        0.35,
        2.675,
        1.0005,
        999.95,
        999.9996,
        -999.96,
        1234.5,
        12345.678,
        0.001,
        Decimal("2.5"),
        Decimal("-0.005"),
        1 / 3,
        -2 / 3,
        1e6,
        123456.789,
        float("nan"),
        float("inf"),
        float("-inf"),
    ]  # an arena's interval over a single deal
    rng = random.Random(7)
    drawn = [rng.randint(-(10**7), 10**7) for _ in range(200)]
    drawn += [round(rng.uniform(-5000, 5000), rng.randint(0, 5)) for _ in range(400)]
    drawn += [rng.uniform(-3, 3) for _ in range(200)]
    return fixed + drawn


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("pattern,shape", SHAPES, ids=[str(p) for p, _ in SHAPES])
def test_numbers_read_as_babel_writes_them(lang: str, pattern: str | None, shape: dict) -> None:
    for x in values():
        want = babel_numbers.format_decimal(x, format=pattern, locale=lang)
        assert format_number(x, lang, **shape) == want, (x, pattern, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_default_number_is_babels(lang: str) -> None:
    for x in values():
        assert format_decimal(x, lang) == babel_numbers.format_decimal(x, locale=lang), (x, lang)


def test_the_catalog_words_write_numbers_as_before() -> None:
    assert [translator(lang).number(-1250) for lang in LANGUAGES] == ["-1250", "-1\u202f250", "-1.250"]
    for lang in LANGUAGES[1:]:
        for x in (0, 5, -20, 1250, 123456, -7777777, 2.5):
            assert translator(lang).number(x) == babel_numbers.format_decimal(x, locale=lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_dates_and_times_read_as_babel_writes_them(lang: str) -> None:
    moments = [
        datetime(2026, month, day, hour, minute)
        for month in range(1, 13)
        for day in (1, 9, 28)
        for hour, minute in ((0, 0), (0, 5), (9, 7), (11, 59), (12, 0), (13, 30), (23, 59))
    ]
    for m in moments:
        assert format_short_time(m, lang) == babel_dates.format_time(m, "short", locale=lang), (m, lang)
        assert format_medium_date(m.date(), lang) == babel_dates.format_date(m, "medium", locale=lang), (m, lang)
    assert format_medium_date(date(1999, 12, 31), lang) == babel_dates.format_date(
        date(1999, 12, 31), "medium", locale=lang
    )
