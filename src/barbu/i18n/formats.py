"""Numbers, dates and times as each language writes them, with the standard library only.

The game prints a handful of shapes: whole scores (``1 250`` in French, ``1.250`` in Italian), measured
means to one or two decimals with or without their sign (``+1,25``), and when a match was saved
(``12 nov. 2026 18:05``).  Babel's CLDR data says how; the few symbols and month names these shapes need
for English, French and Italian are kept here, so that the engine, the command line and the terminal
game need no Babel (it stays for the catalogs' upkeep, `barbu.i18n.catalogs`, and the web pages).
``tests/test_i18n_formats.py`` checks every shape against Babel where Babel is installed.
"""

from __future__ import annotations

from datetime import date, datetime, time
from decimal import ROUND_HALF_EVEN, Decimal

#: Per language: the decimal mark, the group separator, the minus and plus signs (CLDR's "latn" symbols).
SYMBOLS = {
    "en": (".", ",", "-", "+"),
    "fr": (",", "\u202f", "-", "+"),  # a narrow no-break space between groups: 1 250
    "it": (",", ".", "-", "+"),
}
#: Abbreviated month names, January first (CLDR's "format" abbreviations, as the medium date uses them).
MONTHS = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "fr": ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."),
    "it": ("gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"),
}


def _symbols(lang: str) -> tuple[str, str, str, str]:
    return SYMBOLS.get(lang, SYMBOLS["en"])


def format_number(
    value: int | float | Decimal,
    lang: str,
    places: int = 0,
    most: int | None = None,
    grouped: bool = True,
    sign: bool = False,
) -> str:
    """``value`` with at least ``places`` and at most ``most`` decimals (default: ``places``), rounded half to
    even, with the language's groups of thousands unless ``grouped`` is False, and a ``+`` on a positive
    number with ``sign``.  The same text as Babel's ``format_decimal`` with the pattern
    ``#,##0.00`` (places=2), ``#,##0.###`` (places=0, most=3), ``0.0`` (grouped=False),
    ``+#,##0.0;-#,##0.0`` (sign=True): a value that rounds to zero keeps its own sign (``-0.0``)."""
    point, group, minus, plus = _symbols(lang)
    most = places if most is None else max(most, places)
    d = value if isinstance(value, Decimal) else Decimal(value) if isinstance(value, int) else Decimal(str(value))
    negative = d.is_signed()
    if not d.is_finite():  # a mean over no deal, an interval over one: as Babel writes them
        mark = minus if negative else plus if sign else ""
        return mark + ("∞" if d.is_infinite() else "NaN" + (point + "0" * places if places else ""))
    text = format(abs(d).quantize(Decimal(1).scaleb(-most), rounding=ROUND_HALF_EVEN), "f")
    whole, _dot, fraction = text.partition(".")
    fraction = fraction.rstrip("0").ljust(places, "0")
    if grouped and len(whole) > 3:
        head = len(whole) % 3 or 3
        whole = group.join([whole[:head]] + [whole[i : i + 3] for i in range(head, len(whole), 3)])
    return (minus if negative else plus if sign else "") + whole + (point + fraction if fraction else "")


def format_decimal(value: int | float | Decimal, lang: str) -> str:
    """A number as the language writes it by default: groups of thousands, up to three decimals
    (Babel's ``format_decimal(value, locale=lang)``)."""
    return format_number(value, lang, 0, 3)


def format_short_time(moment: datetime | time, lang: str) -> str:
    """The time of day, short: ``6:05 PM`` in English (a narrow no-break space before the AM or PM),
    ``18:05`` in French and Italian (Babel's ``format_time(moment, "short")``)."""
    if lang not in ("fr", "it"):
        hour = moment.hour % 12 or 12
        return f"{hour}:{moment.minute:02d}\u202f{'AM' if moment.hour < 12 else 'PM'}"
    return f"{moment.hour:02d}:{moment.minute:02d}"


def format_medium_date(day: date, lang: str) -> str:
    """A date, medium: ``Nov 12, 2026`` in English, ``12 nov. 2026`` in French, ``12 nov 2026`` in Italian
    (Babel's ``format_date(day, "medium")``)."""
    months = MONTHS.get(lang, MONTHS["en"])
    if lang not in ("fr", "it"):
        return f"{months[day.month - 1]} {day.day}, {day.year}"
    return f"{day.day} {months[day.month - 1]} {day.year}"
