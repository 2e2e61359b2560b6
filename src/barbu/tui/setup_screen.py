"""The setup screen: game, options, players, your seat, the computer players, seed and pace.

Everything starts at a sensible default, with the focus on Start: Enter
starts at once.  Options are those the chosen family reads, each with the
values it allows; a combination the rules refuse is explained and not started.
The first line chooses the language (English, Français, Italiano): the whole
game speaks it from then on, this screen first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Collapsible, Footer, Input, Label, OptionList, Select, Static

from ..agents import AGENT_KINDS
from ..besigue import BesigueRules
from ..classic.ruleset import OPTIONS, OptionSpec, Ruleset, preset, presets, short_form
from ..core.errors import RulesetError
from ..duplicate.shadow import STRONGEST
from ..guide.ruleset_words import game_name, option_about, preset_name, value_phrase
from ..i18n import _, current, ngettext, number, use, word_error
from ..i18n import words as language_words
from ..play.labels import option_word, player_word, seat_place
from ..play.session import Settings, default_strength
from ..records.savefiles import saved_matches
from . import besigue_setup, bindings
from .besigue_setup import is_besigue
from .dialogs import ConfirmDialog
from .lesson_screen import LessonScreen
from .widgets import SavedList, saved_when


def option_values(spec: OptionSpec) -> list[str]:
    """The values a setup menu offers for an option, as text."""
    if spec.kind is bool:
        return ["true", "false"]
    if spec.choices is not None:
        return [spec.format(c) for c in spec.choices]
    lo = spec.minimum if spec.minimum is not None else 0
    hi = spec.maximum if spec.maximum is not None else lo + 10
    return [str(x) for x in range(lo, hi + 1)]


#: The languages offered, each named in itself.
LANGUAGE_CHOICES = [("English", "en"), ("Français", "fr"), ("Italiano", "it")]


def row(label: str, widget: Widget, help: str = "") -> Horizontal:
    r = Horizontal(Label(label, classes="setup-label"), widget, classes="setup-row")
    if help:
        r.tooltip = help
    return r


class SetupScreen(Screen["Settings | Path"]):
    """Choose the game; dismissed with the chosen `Settings`, or the path of a saved match to resume."""

    BINDINGS = bindings.SETUP
    VERTICAL_BREAKPOINTS = [(0, "-short"), (44, "-tall")]  # up to 43 lines: one line a setting (barbu.tcss)

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        bindings.translate(self)
        rules = settings.rules
        self.preset_name = rules.preset
        self.values: dict[str, Any] = (
            besigue_setup.option_values(rules) if isinstance(rules, BesigueRules) else rules.option_values()
        )
        self.full_obligation = self.values.get("double_obligation", 0)  # what "Full match" gives back
        self.seat = settings.seat
        self.kinds = settings.strengths()
        # players given with --opponents beyond the menu's own (a trained policy, search(samples=20)) stay on offer
        self.extra_kinds = [k for k in dict.fromkeys(self.kinds.values()) if k not in AGENT_KINDS]
        self.seed = settings.seed
        self.delay = settings.delay
        self.save = settings.save
        self.save_exact = settings.save_exact
        self.confirm_forced = settings.confirm_forced
        # the expert's replay of each deal: on unless --no-compare said otherwise; --compare-with's player is kept
        self.compare_on = bool(settings.compare)
        self.compare_with = settings.compare or STRONGEST
        folder = settings.save.parent if settings.save is not None else Path(".")
        self.waiting = [s for s in saved_matches(folder) if not s.finished]  # newest first

    # ---------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        if self.waiting:
            yield Static(
                _(
                    "[b]barbu[/b] — [b]Enter[/b] starts a [b]new[/b] match with these settings; "
                    "to go on with a saved match, choose it in the list below."
                ),
                id="setup-title",
            )
        else:
            yield Static(
                _("[b]barbu[/b] — a new match. [b]Enter[/b] starts with these settings; Tab moves between them."),
                id="setup-title",
            )
        with VerticalScroll(id="setup-form"):
            yield row(
                _("Language"),
                Select(LANGUAGE_CHOICES, value=current(), allow_blank=False, id="language"),
                _("The language of the whole game."),
            )
            yield row(
                _("Game"),
                Select(
                    [(preset_name(p.name, language_words()), p.name) for p in presets()] + besigue_setup.game_choices(),
                    value=self.preset_name,
                    allow_blank=False,
                    id="preset",
                ),
            )
            yield Static(self._description(self.preset_name), id="preset-help")
            yield Vertical(*self._seat_rows(), id="seats-area")
            with Collapsible(title=_("Rule options"), collapsed=True, id="options-box"):
                yield Vertical(*self._option_rows(), id="options-area")
            yield row(
                _("Seed"),
                Input(value="" if self.seed is None else str(self.seed), placeholder=_("random"), id="seed"),
                _("The same seed deals the same cards."),
            )
            yield row(
                _("Pause between computer moves (seconds)"),
                Input(value=f"{self.delay:g}", id="delay"),
                _("Seconds the computer players wait before each move, so you can follow (0: no wait)."),
            )
            yield row(
                _("A forced move"),
                Select(
                    [(_("is made for you, with a note"), "auto"), (_("waits for you to confirm it"), "confirm")],
                    value="confirm" if self.confirm_forced else "auto",
                    allow_blank=False,
                    id="forced",
                ),
                _(
                    "A pass when no card fits, the only card you may play, no double possible: "
                    "made at once with a note, or left for you to confirm."
                ),
            )
            yield row(
                "",
                Checkbox(_("Compare with the expert after each deal"), value=self.compare_on, id="compare"),
                _(
                    "After each deal, the strongest computer player replays it in your seat on the same cards, "
                    "in the background: beside your score, what it scored."
                ),
            )
        yield Static(id="setup-error")
        if self.waiting:
            with Vertical(id="setup-saved"):
                yield Static(self._saved_heading(), id="saved-heading")
                yield SavedList(self.waiting, id="saved-list")
        with Horizontal(id="setup-buttons"):
            yield Button(_("Start a new match") if self.waiting else _("Start"), id="start", variant="primary")
            yield Button(_("Learn to play"), id="learn")
        yield Footer()

    def _saved_heading(self) -> str:
        return ngettext(
            "[b]{n} saved match[/b], newest first: ↑ ↓ and Enter resume it, Delete removes it. "
            "A new match gets a file of its own.",
            "[b]{n} saved matches[/b], newest first: ↑ ↓ and Enter resume one, Delete removes it. "
            "A new match gets a file of its own.",
            len(self.waiting),
        ).format(n=number(len(self.waiting)))

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()

    async def switch_language(self, lang: str) -> None:
        """Speak ``lang`` from now on: this screen is drawn again in it (its choices kept), the app's keys too."""
        use(lang)
        bindings.translate(self)
        bindings.translate(self.app)
        self.seed_text = self.query_one("#seed", Input).value
        self.delay_text = self.query_one("#delay", Input).value
        await self.recompose()
        self.query_one("#seed", Input).value = self.seed_text
        self.query_one("#delay", Input).value = self.delay_text
        self.query_one("#language", Select).focus()

    def _family(self):
        """The Barbu family's spec of the chosen game; None for Bésigue, which has its own options."""
        return None if is_besigue(self.preset_name) else preset(self.preset_name).ruleset.family_spec

    @staticmethod
    def _description(name: str) -> str:
        return besigue_setup.description(name) if is_besigue(name) else _(preset(name).description)

    def _seat_rows(self) -> list[Widget]:
        fam = self._family()
        n = int(self.values["players"])
        rows: list[Widget] = []
        if fam is not None and "contracts_each" in fam.options:
            rows.append(
                row(
                    _("Length"),
                    Select(
                        [(_("Full match"), "full"), (_("Short match"), "short")],
                        value="short" if self.values.get("contracts_each") else "full",
                        allow_blank=False,
                        id="length",
                    ),
                    _("A short match is about twenty minutes: each player declares two contracts (8 deals at four)."),
                )
            )
        if fam is not None and len(fam.players) > 1:
            rows.append(
                row(
                    _("Players"),
                    Select([(number(p), str(p)) for p in fam.players], value=str(n), allow_blank=False, id="players"),
                )
            )
        rows.append(
            row(
                _("Your seat"),
                Select(
                    [(seat_place(s, n), str(s)) for s in range(n)],  # places seen from seat 0, as records show them
                    value=str(self.seat),
                    allow_blank=False,
                    id="seat",
                ),
            )
        )
        choices = [(option_word(k), k) for k in AGENT_KINDS] + [(player_word(k), k) for k in self.extra_kinds]
        for s in range(n):
            if s == self.seat:
                continue
            kind = self.kinds.get(s) or default_strength()
            self.kinds[s] = kind
            rows.append(
                row(
                    # TRANSLATORS: a computer player's row in the setup: "West plays" (its strength follows).
                    _("{place} plays").format(place=seat_place(s, n, self.seat)),
                    Select(choices, value=kind, allow_blank=False, id=f"opp-{s}"),
                    _("The strength of this computer player."),
                )
            )
        return rows

    def _option_rows(self) -> list[Widget]:
        fam = self._family()
        if fam is None:
            return [
                row(label, Select(shown, value=value, allow_blank=False, id=wid), help)
                for label, wid, shown, value, help in besigue_setup.option_menus(self.values)
            ]
        w = language_words()
        rows: list[Widget] = []
        for name, spec in OPTIONS.items():
            if name in ("players", "contracts_each") or name not in fam.options:
                continue  # the length has its own row beside the game
            value = spec.format(self.values[name])
            # each option's values in its own words: "none" is "no doubling" here, "any time" for the heart lead
            shown = [(value_phrase(name, v, w), v) for v in option_values(spec)]
            label = option_word(name)  # "Ravage City" keeps its capitals
            rows.append(
                row(
                    label[:1].upper() + label[1:],
                    Select(shown, value=value, allow_blank=False, id=f"opt-{name}"),
                    option_about(name, spec.help, w) if spec.help else "",
                )
            )
        if not rows:
            rows.append(Label(_("This game has no options.")))
        return rows

    async def _rebuild(self, seats: bool = True, options: bool = False) -> None:
        if seats:
            area = self.query_one("#seats-area")
            await area.remove_children()
            await area.mount_all(self._seat_rows())
        if options:
            area = self.query_one("#options-area")
            await area.remove_children()
            await area.mount_all(self._option_rows())

    # ---------------------------------------------------------------- changes
    @on(Select.Changed)
    async def on_select(self, event: Select.Changed) -> None:
        wid = event.select.id or ""
        value = str(event.value)
        if wid == "language":
            if value != current():
                await self.switch_language(value)
            return
        if wid == "preset":
            if value == self.preset_name:
                return
            self.preset_name = value
            self.values = (
                besigue_setup.preset_values(value) if is_besigue(value) else preset(value).ruleset.option_values()
            )
            self.seat = min(self.seat, int(self.values["players"]) - 1)
            self.full_obligation = self.values.get("double_obligation", 0)  # the new game's own
            self.query_one("#preset-help", Static).update(self._description(value))
            await self._rebuild(seats=True, options=True)
        elif wid == "players":
            if int(value) == self.values["players"]:
                return
            self.values["players"] = int(value)
            self.seat = min(self.seat, int(value) - 1)
            await self._rebuild()
        elif wid == "seat":
            if int(value) == self.seat:
                return
            self.seat = int(value)
            await self._rebuild()
        elif wid == "length":
            self.values.update(self._length_values(value == "short"))
            await self._rebuild(seats=False, options=True)  # the double obligation follows the length
        elif wid == "forced":
            self.confirm_forced = value == "confirm"
        elif wid.startswith("opp-"):
            self.kinds[int(wid[4:])] = value
        elif wid.startswith("opt-"):
            name = wid[4:]
            self.values[name] = value if is_besigue(self.preset_name) else OPTIONS[name].parse(value)
        self.query_one("#setup-error", Static).update("")

    def _length_values(self, short: bool) -> dict[str, Any]:
        """The options that make the chosen game's match full or short (`barbu.classic.ruleset.short_form`)."""
        base = preset(self.preset_name).ruleset
        current = base.replace(**{k: v for k, v in self.values.items() if k != "contracts_each"}, contracts_each=0)
        obliged = "double_obligation" in self.values  # a game without the obligation (French, Salad…) has none
        if not short:  # the obligation as it was before the match was made short
            return {"contracts_each": 0, **({"double_obligation": self.full_obligation} if obliged else {})}
        made = short_form(current)
        if not obliged:
            return {"contracts_each": made.contracts_each}
        self.full_obligation = self.values["double_obligation"]
        return {"contracts_each": made.contracts_each, "double_obligation": made.double_obligation}

    @on(Checkbox.Changed, "#compare")
    def on_compare(self, event: Checkbox.Changed) -> None:
        self.compare_on = event.value  # kept across a change of language, like the other choices

    # ---------------------------------------------------------------- start
    def settings(self) -> Settings:
        """The chosen settings; a refused combination raises `RulesetError` in plain words."""
        rules: Ruleset | BesigueRules
        if is_besigue(self.preset_name):
            rules = besigue_setup.rules_from(self.preset_name, self.values)
        else:
            base = preset(self.preset_name).ruleset
            changes = {k: v for k, v in self.values.items() if getattr(base, k) != v}
            rules = base.replace(**changes) if changes else base
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            raise RulesetError(_("the seed must be a whole number, not {text!r}").format(text=seed_text)) from None
        delay_text = self.query_one("#delay", Input).value.strip() or "0"
        try:
            delay = float(delay_text)
        except ValueError:
            raise RulesetError(
                _("the pace is a number of seconds, like 0.6, not {text!r}").format(text=delay_text)
            ) from None
        kinds = {s: k for s, k in self.kinds.items() if s != self.seat and s < rules.players}
        settings = Settings(
            rules=rules,
            seat=self.seat,
            opponents=kinds,
            seed=seed,
            delay=delay,
            save=self.save,
            save_exact=self.save_exact,
            confirm_forced=self.confirm_forced,
            compare=self.compare_with if self.compare_on else None,
        )
        settings.check()
        return settings

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        try:
            settings = self.settings()
        except RulesetError as e:
            self.query_one("#setup-error", Static).update(
                "[b red]" + _("Cannot start:") + "[/] " + escape(word_error(e, current()))
            )
            return
        self.dismiss(settings)

    @on(Button.Pressed, "#learn")
    def action_learn(self) -> None:
        """The guided first deal; at its end, "Start a real match" starts one with these settings."""

        def after(what: str | None) -> None:
            if what == "match":
                self.action_start()

        self.app.push_screen(LessonScreen(), after)

    @on(OptionList.OptionSelected, "#saved-list")
    def resume(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.waiting[event.option_index].path)

    @on(SavedList.DeleteAsked)
    def ask_delete(self, event: "SavedList.DeleteAsked") -> None:
        """Delete a saved match, once the person has said yes: a file is never removed by one key alone."""
        saved = self.waiting[event.index]

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                saved.path.unlink()
            except FileNotFoundError:
                pass
            except OSError as e:
                self.notify(
                    _("{file} could not be deleted: {reason}").format(file=saved.path.name, reason=e.strerror or e),
                    severity="error",
                )
                return
            self.notify(_("{file} deleted").format(file=saved.path.name), timeout=4)
            self.waiting.remove(saved)
            self.call_later(self.recompose)

        self.app.push_screen(
            ConfirmDialog(
                _("Delete this saved match?"),
                escape(
                    _("{when}: {rules}, {state} ({file}). It cannot be resumed afterwards.").format(
                        when=saved_when(saved.modified),
                        rules=game_name(saved.rules, language_words()),
                        state=saved.progress(),
                        file=saved.path.name,
                    )
                ),
                _("Delete"),
                _("Keep it"),
            ),
            answered,
        )

    @on(Input.Submitted)
    def on_input_enter(self) -> None:
        self.action_start()
