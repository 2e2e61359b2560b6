"""The web's coded refusals: each defined once with a stable kebab-case code, of a known kind, and worded in
French and Italian by the web's catalogs (as the engine's coded messages are, in tests/test_i18n.py)."""

from __future__ import annotations

import importlib
import pkgutil
import re
import string
from typing import Any

import pytest

import barbu.web
from barbu.i18n import LANGUAGES, catalogs, translator
from barbu.web.common.errors import HTTP_STATUS, REFUSALS, Refusal, WebError, fill, refusal, status_of
from barbu.web.common.wording import error_json, word

#: The catalogs of the web's own words: the server's and the scorekeeper page's.
WEB_DOMAINS = ("web", "webscore")
KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
NUMBERS = {"n", "lo", "hi", "limit", "room", "deal", "season", "rounds", "seconds", "seat"}


def web_modules() -> list[str]:
    """Every module of the web (its database migrations aside, which run under Alembic only)."""
    names = ["barbu.web"]
    for info in pkgutil.walk_packages(barbu.web.__path__, "barbu.web."):
        if ".migrations" not in info.name:
            names.append(info.name)
    return names


@pytest.fixture(scope="module", autouse=True)
def defined() -> dict[str, list[tuple[str, str, Refusal]]]:
    """Every refusal the web's modules name, by code: (module, name, refusal); the registry filled on the way."""
    found: dict[str, list[tuple[str, str, Refusal]]] = {}
    for name in web_modules():
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if isinstance(value, Refusal):
                found.setdefault(value.code, []).append((name, attr, value))
    return found


def template_of(r: Refusal) -> str:
    return r.template if isinstance(r.template, str) else r.template[0]


def sample_fields(r: Refusal) -> dict[str, Any]:
    names = {
        f
        for part in ([r.template] if isinstance(r.template, str) else r.template)
        for _, f, _, _ in string.Formatter().parse(part)
        if f
    }
    return {f: 3 if f in NUMBERS else "xyz" for f in sorted(names)}


def test_every_web_module_is_imported_and_the_registry_is_not_empty(defined) -> None:
    assert defined, "no module of the web names a refusal"
    assert set(defined) <= set(REFUSALS)
    for code, places in defined.items():  # a refusal imported elsewhere is the same one
        assert all(r == REFUSALS[code] for _, _, r in places), (code, places)


def test_codes_are_kebab_case_and_each_stands_for_one_refusal(defined) -> None:
    for code, r in REFUSALS.items():
        assert r.code == code
        assert KEBAB.fullmatch(code), f"{code!r} is not kebab-case"
    templates: dict[Any, str] = {}
    for code, r in REFUSALS.items():  # nor two codes for one sentence of one kind
        other = templates.setdefault((r.template, r.kind), code)
        assert other == code, f"{other!r} and {code!r} are the same refusal"


def test_a_code_defined_twice_with_another_text_is_refused() -> None:
    code = next(iter(REFUSALS))
    with pytest.raises(ValueError, match="defined twice"):
        refusal(code, "another text entirely", REFUSALS[code].kind)
    assert refusal(code, REFUSALS[code].template, REFUSALS[code].kind) == REFUSALS[code]  # the same again: fine


def test_each_kind_is_a_known_kind_with_its_status() -> None:
    for r in REFUSALS.values():
        assert r.kind in HTTP_STATUS, (r.code, r.kind)
        assert WebError(r, **sample_fields(r)).status == r.status == HTTP_STATUS[r.kind]


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_every_refusal_is_translated_in_the_web_catalogs(lang: str) -> None:
    read = [catalogs.read(catalogs.po_path(lang, d), lang, d) for d in WEB_DOMAINS]
    untranslated = []
    for r in REFUSALS.values():
        found = next((m for c in read if (m := c.get(r.template)) is not None), None)
        strings = [] if found is None else list(found.string) if isinstance(found.string, tuple) else [found.string]
        if found is None or found.fuzzy or not strings or not all(strings):
            untranslated.append(f"{r.code}: {template_of(r)!r}")
    assert not untranslated, f"refusals not translated into {lang}:\n" + "\n".join(untranslated)


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_a_refusal_is_worded_in_the_readers_language(lang: str) -> None:
    english = translator("en")
    words = translator(lang, "web")
    for r in REFUSALS.values():
        fields = sample_fields(r)
        e = WebError(r, **fields)
        said = word(e, lang)
        assert str(e) == fill(english, r.template, fields)
        assert said == fill(words, r.template, fields), r.code
        assert said.strip() and "{" not in said, r.code
        if re.search(r"[a-z]", re.sub(r"\{[^}]*\}", "", template_of(r))):  # a template with words of its own
            assert said != str(e), f"{r.code} is not worded in {lang}: {said!r}"


def test_a_coded_refusal_travels_with_its_code_and_fields() -> None:
    from barbu.web.accounts.refusals import NAME_TOO_LONG

    e = WebError(NAME_TOO_LONG, n=24)
    assert (str(e), e.code, e.kind, status_of(e)) == (
        "a user name has at most 24 characters",
        "user-name-too-long",
        "bad",
        400,
    )
    assert error_json(e, "fr") == {"error": word(e, "fr"), "code": "user-name-too-long", "params": {"n": 24}}
    assert word(e, "fr") != str(e) and "24" in word(e, "fr")
