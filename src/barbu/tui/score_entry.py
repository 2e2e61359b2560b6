"""Entering one deal, step by step, as the keeper asks for it: dealer, cards set aside, contract, trumps
or rank, doubles, then the outcome as the table counts it; a preview of the scores before it is saved.

Each step is what ``keeper.needs(partial)`` says is missing, so the form asks
only what the rules need.  A refusal is shown in plain words and the form
keeps every answer.  Escape goes back one step.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

from rich.markup import escape
from rich.table import Table
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..core.cards import RANKS
from ..core.words import N_
from ..i18n import _, number, words
from ..play.labels import RANK_PLURALS, signed, suit_label
from ..scorekeeper import AnyKeeper, BesigueKeeper, KeeperError, Needs, Question
from ..scorekeeper.questions import label as question_label
from ..scorekeeper.refusals import word_note
from ..scorekeeper.sheet import place
from .score_sheet import side_panel
from .score_widgets import DoublesGrid, Picker, word_bindings

STEP_TITLES = {
    "dealer": N_("Who deals?"),
    "set_aside": N_("Cards set aside face up"),
    "cuts": N_("Cuts of the Unused Pack"),
    "contract": N_("The contract"),
    "trump": N_("Trumps"),
    "rank": N_("Starting rank"),
    "doubles": N_("Doubles"),
    "outcome": N_("The outcome, as counted"),
    "done": N_("Check and save"),
}


def trump_word(t: str) -> str:
    """A trump choice as the player reads it: ``♠ spades`` (``♠ pique``: a suit named as trumps), or no trump."""
    i = "SHDC".find(t)
    return suit_label(i) if i >= 0 else _("no trump") if t == "none" else t


def rank_word(r: str) -> str:
    """A starting rank in the plural: ``from the jacks`` (``(départ : les valets)``), never "the Js"."""
    return _("from the {ranks}").format(ranks=_(RANK_PLURALS[RANKS.index(r)]))


def refusal(e: KeeperError) -> str:
    """The keeper's refusal in the language of the moment, without the deal's number (the form shows it)."""
    return e.worded(words(), deal=False)


class DealScreen(Screen[bool]):
    """The form for one deal.  ``base`` is the game up to this deal; ``commit(entry)`` stores it
    (raising `KeeperError` to refuse, which keeps the form)."""

    BINDINGS = [
        Binding("escape", "back", N_("Back")),
        Binding("ctrl+s", "submit", N_("Next / save")),
        Binding("ctrl+q", "app.quit", N_("Quit"), show=False, priority=True),
    ]

    def __init__(
        self, base: AnyKeeper, commit: Callable[[dict], None], prefill: dict | None = None, title: str = ""
    ) -> None:
        super().__init__()
        word_bindings(self)
        self.base = base
        self.commit = commit
        self.prefill = copy.deepcopy(prefill or {})
        self.partial: dict[str, Any] = {}
        self.answered: list[str] = []
        self.heading = title
        self.need: Needs | None = None
        self.seats: tuple[int | None, int | None] = (None, None)  # dealer and declarer, once known

    def compose(self) -> ComposeResult:
        yield Static(id="entry-title")
        with Horizontal(id="entry-body"):
            with Vertical(id="entry-main"):
                yield Static(id="entry-so-far")
                yield VerticalScroll(id="entry-step")
                yield Static(id="entry-error")
            with VerticalScroll(id="entry-side"):
                yield Static(side_panel(self.base), id="entry-side-body")
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < 110, "-narrow")
        self.show_step()

    def on_resize(self, event) -> None:
        self.set_class(event.size.width < 110, "-narrow")

    # ---------------------------------------------------------------- steps
    def _needs(self) -> Needs:
        """What is still missing; a deal nobody doubled (not played) is complete without an outcome."""
        p = self.partial
        number = len(self.base.results) + 1
        if "outcome" in p:  # checked on a trial when it was submitted
            return Needs(number, "done")
        if "doubles" in p and not isinstance(self.base, BesigueKeeper):
            try:
                self.base.add(dict(p))
            except KeeperError:
                pass
            else:
                self.base.undo()
                return Needs(number, "done")
        return self.base.needs(p)

    def show_step(self, error: str = "") -> None:
        try:
            need = self._needs()
        except KeeperError as e:  # the last answer cannot be: take it back and say why
            if self.answered:
                self.partial.pop(self.answered.pop(), None)
            return self.show_step(refusal(e))
        self.need = need
        deal = _("deal {n}").format(n=need.number)
        where = f", {word_note(need.where, words())}" if need.where else ""
        step = _(STEP_TITLES[need.ask]) if need.ask in STEP_TITLES else need.ask
        self.query_one("#entry-title", Static).update(
            f"[b]{escape(self.heading)}[/b] — {escape(deal)}{escape(where)} · [b]{escape(step)}[/b]"
        )
        self.query_one("#entry-so-far", Static).update(self._so_far(need))
        self._error(error)
        self.call_later(self._mount_step, need)

    async def _mount_step(self, need: Needs) -> None:
        """The step's widgets replace the last step's (removed first: they share ids)."""
        if need is not self.need:
            return
        box = self.query_one("#entry-step", VerticalScroll)
        await box.remove_children()
        await box.mount_all(self._step_widgets(need))
        self._focus_first()

    def _focus_first(self) -> None:
        for w in self.query("#entry-step OptionList, #entry-step Input, #entry-step Picker, #entry-step DoublesGrid"):
            w.focus()
            return

    def _so_far(self, need: Needs) -> str:
        names = self.base.names
        parts = []
        if need.dealer is not None:
            self.seats = (need.dealer, need.declarer)
        dealer, declarer = self.seats
        if dealer is not None:
            parts.append(_("dealer {name}").format(name=f"[b]{escape(names[dealer])}[/b]"))
        if declarer is not None and declarer != dealer:
            parts.append(_("declarer {name}").format(name=f"[b]{escape(names[declarer])}[/b]"))
        p = self.partial
        if p.get("set_aside"):
            parts.append(escape(_("set aside {cards}").format(cards=p["set_aside"])))
        if p.get("contract"):
            parts.append(escape(self._contract_name(p["contract"])))
        if p.get("trump"):
            parts.append(escape(trump_word(p["trump"])))
        if p.get("rank"):
            parts.append(escape(rank_word(str(p["rank"]))))
        if "doubles" in p:
            parts.append(
                escape(
                    "; ".join(
                        (_("{a}→{b} redoubled") if r else _("{a}→{b}")).format(a=names[a], b=names[b])
                        for a, b, r in p["doubles"]
                    )
                    or _("no double")
                )
            )
        return " · ".join(parts)

    def _contract_label(self, key: str, name: str) -> str:
        """A contract in the list: its name, then how it scores, dim."""
        m = getattr(self.base, "match", None)
        c = m.contract_by_key.get(key) if m is not None else None
        help = getattr(c, "help", "") if c is not None else ""
        name = words().contract(name)
        return f"{escape(name)}  [dim]{escape(_(help))}[/dim]" if help and "+" not in key else escape(name)

    def _contract_name(self, key: str) -> str:
        c = getattr(self.base, "match", None)
        found = c.contract_by_key.get(key) if c is not None else None
        return words().contract(found.name) if found is not None else key

    def _error(self, text: str) -> None:
        w = self.query_one("#entry-error", Static)
        w.update(f"[b]✗ {escape(text)}[/b]" if text else "")
        w.set_class(bool(text), "shown")

    def _step_widgets(self, need: Needs) -> list:
        names = self.base.names
        pre = self.prefill
        ask = need.ask
        if ask == "dealer":
            return [self._options([(str(s), escape(x)) for s, x in enumerate(names)], str(pre.get("dealer", "")))]
        if ask == "contract":
            return [
                self._options(
                    [(key, self._contract_label(key, name)) for key, name in need.contracts], pre.get("contract")
                )
            ]
        if ask == "trump":
            return [self._options([(t, escape(trump_word(t))) for t in need.trumps], pre.get("trump"))]
        if ask == "rank":
            return [self._options([(r, escape(rank_word(r))) for r in need.ranks], pre.get("rank"))]
        if ask == "set_aside":
            return [
                Label(_("Name the {n} card(s) left out face up, e.g. 7C 2D:").format(n=need.set_aside)),
                Input(value=str(pre.get("set_aside", "")), placeholder="7C 2D", id="text-answer"),
            ]
        if ask == "cuts":
            cuts = pre.get("cuts") or []
            return [
                Label(_("The cards cut from the Unused Pack, in order (e.g. 5S Joker):")),
                Input(value=" ".join(cuts), placeholder="5S Joker", id="text-answer"),
            ]
        if ask == "doubles":
            return [
                Static(
                    _(
                        "Who doubled whom? [b]Space[/b] (or a click) marks a double; again: redoubled by "
                        "the player doubled; again: none. Nobody doubled? [b]Enter[/b]."
                    )
                ),
                DoublesGrid(names, need.doublers, need.owed, pre.get("doubles", ()), need.declarer, id="doubles"),
                Static("[dim]" + _("Arrows move · Space double/redouble · Enter or Ctrl+S next") + "[/dim]"),
            ]
        if ask == "outcome":
            return [OutcomeForm(names, need.questions, pre.get("outcome") or {}, id="outcome")]
        if ask == "done":
            return self._preview()
        if ask == "over":
            return [Static(_("The game is over: there is no deal to enter. Esc goes back to the sheet."))]
        return [Static(_("The keeper asks for {ask}, which this form does not know.").format(ask=escape(ask)))]

    def _options(self, choices: list[tuple[str, str]], current: Any) -> OptionList:
        ol = OptionList(*[Option(label, id=key) for key, label in choices], id="choices")
        keys = [k for k, _ in choices]
        if current is not None and str(current) in keys:
            ol.highlighted = keys.index(str(current))
        return ol

    # ---------------------------------------------------------------- answers
    def _answer(self, field: str, value: Any) -> None:
        self.partial[field] = value
        self.prefill[field] = value
        if field not in self.answered:
            self.answered.append(field)
        self.show_step()

    @on(OptionList.OptionSelected, "#choices")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        ask = self.need.ask if self.need else ""
        key = event.option.id or ""
        self._answer(ask, int(key) if ask == "dealer" else key)

    @on(Input.Submitted, "#text-answer")
    def typed(self, event: Input.Submitted) -> None:
        self._typed(event.value)

    def _typed(self, value: str) -> None:
        ask = self.need.ask if self.need else ""
        text = value.strip()
        if not text:
            self._error(_("type the cards first"))
            return
        self._answer(ask, text.replace(",", " ").split() if ask == "cuts" else text)

    def on_key(self, event) -> None:
        done = self.need is not None and self.need.ask == "done"
        if event.key == "enter" and (done or isinstance(self.focused, DoublesGrid)):
            event.stop()
            self.action_submit()

    def action_submit(self) -> None:
        ask = self.need.ask if self.need else ""
        if ask == "doubles":
            self._answer("doubles", self.query_one(DoublesGrid).value())
        elif ask == "outcome":
            self._submit_outcome()
        elif ask == "done":
            self._save()
        elif ask in ("set_aside", "cuts"):
            self._typed(self.query_one("#text-answer", Input).value)
        elif ask in ("dealer", "contract", "trump", "rank"):
            ol = self.query_one("#choices", OptionList)
            if ol.highlighted is not None:
                ol.action_select()

    def _submit_outcome(self) -> None:
        form = self.query_one(OutcomeForm)
        try:
            answers = form.answers()
        except ValueError as e:
            self._error(str(e))
            return
        self.prefill["outcome"] = answers
        entry = dict(self.partial, outcome=answers)
        try:  # checked on a trial: the form stays as it is if the keeper refuses
            self.base.add(entry)
        except KeeperError as e:
            self._error(refusal(e))
            return
        self.base.undo()
        self.partial["outcome"] = answers
        if "outcome" not in self.answered:
            self.answered.append("outcome")
        self.show_step()

    @on(Picker.Changed)
    def picked(self, event: Picker.Changed) -> None:
        """A player chosen by number or click: on to the next question, or to the preview after the last."""
        if not event.final:
            return
        boxes = list(self.query("#outcome Input, #outcome Picker"))
        i = boxes.index(event.picker) if event.picker in boxes else len(boxes) - 1
        if i + 1 < len(boxes):
            boxes[i + 1].focus()
        elif event.picker.has_focus:
            self._submit_outcome()

    @on(Input.Submitted, "#outcome Input")
    def outcome_enter(self, event: Input.Submitted) -> None:
        """Enter moves to the next box; on the last one it goes to the preview."""
        event.stop()
        inputs = list(self.query("#outcome Input, #outcome Picker"))
        i = inputs.index(event.input) if event.input in inputs else len(inputs) - 1
        if i + 1 < len(inputs):
            inputs[i + 1].focus()
        else:
            self._submit_outcome()

    def _preview(self) -> list:
        """The deal scored as it would be saved (on a trial: nothing is stored yet)."""
        entry = dict(self.partial)
        try:
            self.base.add(entry)
        except KeeperError as e:
            return [Static(f"[red]{escape(e.worded(words()))}[/red]")]
        k = self.base
        r = k.results[-1]
        totals = list(k.totals)
        flags = k.flags.get(r["deal"] if isinstance(r, dict) else r.number, [])
        k.undo()
        t = Table(box=None, pad_edge=False, show_edge=False)
        t.add_column("")
        for x in k.names:
            t.add_column(x, justify="right")
        if isinstance(r, dict):
            t.add_row(_("this deal"), *(signed(x) for x in r["scores"]))
        else:
            if r.scottish is not None:
                from ..classic.contracts import SCOTTISH_CALL_NAMES

                for call, pts in zip(r.scottish.calls, r.scottish.parts):
                    t.add_row(words().contract(SCOTTISH_CALL_NAMES.get(call, call)), *(signed(x) for x in pts))
            else:
                t.add_row(_("contract points"), *(signed(x) for x in r.base))
            if r.doubles:
                t.add_row(_("doubles"), *(signed(x - y) for x, y in zip(r.scores, r.base)))
            if r.series:
                t.add_row(_("series points"), *(signed(x) for x in r.series))
            t.add_row("[b]" + _("this deal") + "[/b]", *(f"[b]{signed(x)}[/b]" for x in r.added))
        t.add_row(_("running total"), *(number(x) if isinstance(x, int) else str(x) for x in totals))
        out: list = [Static(t, id="preview")]
        for f in flags:
            out.append(Static(f"[yellow]! {escape(word_note(f, words()))}[/yellow]"))
        out.append(
            Static(_("[b]Enter[/b] or Ctrl+S saves this deal · [b]Esc[/b] goes back to change it"), id="preview-help")
        )
        return out

    def _save(self) -> None:
        try:
            self.commit(dict(self.partial))
        except KeeperError as e:
            self._error(e.worded(words()))
            return
        self.dismiss(True)

    def action_back(self) -> None:
        """One step back (the answer stays prefilled); at the first step, leave without saving."""
        if not self.answered:
            self.dismiss(False)
            return
        self.partial.pop(self.answered.pop(), None)
        self.show_step()


class OutcomeForm(Vertical):
    """Every outcome question of the deal, each answered in the form the table counts it."""

    def __init__(self, names: list[str], questions: tuple[Question, ...], prefill: dict, **kwargs) -> None:
        super().__init__(**kwargs)
        self.names = names
        self.questions = questions
        self.prefill = prefill

    def compose(self) -> ComposeResult:
        n = len(self.names)
        for qi, q in enumerate(self.questions):
            pre = self.prefill.get(q.key)
            yield Label(f"[b]{escape(question_label(q, words()))}[/b]", classes="q-label")
            if q.kind == "counts":
                with Horizontal(classes="q-row"):
                    for s, name in enumerate(self.names):
                        yield Label(escape(name), classes="count-name")
                        value = "" if not isinstance(pre, list) or s >= len(pre) else str(pre[s])
                        yield Input(value=value, type="integer", id=f"q{qi}-{s}", classes="count")
                    yield Static("", id=f"q{qi}-sum", classes="count-sum")
            elif q.kind in ("seat", "yesno"):
                choices = [_("no"), _("yes")] if q.kind == "yesno" else self.names
                picked = (int(bool(pre)) if pre is not None else None) if q.kind == "yesno" else pre
                yield Picker(choices, picked, id=f"q{qi}-0")
            elif q.kind in ("seats", "order"):
                size = q.size or n
                for i in range(size):
                    picked = pre[i] if isinstance(pre, list) and i < len(pre) else None
                    word = (
                        _("{place} out").format(place=place(i + 1, words()))
                        if q.kind == "order"
                        else (
                            _("last trick")
                            if i == size - 1
                            else _("trick {n} of the last {size}").format(n=i + 1, size=size)
                        )
                    )
                    with Horizontal(classes="q-row"):
                        yield Label(word, classes="pick-name")
                        yield Picker(self.names, picked, id=f"q{qi}-{i}")
            elif q.kind == "rows":
                for s, name in enumerate(self.names):
                    value = pre[s] if isinstance(pre, list) and s < len(pre) else ""
                    with Horizontal(classes="q-row"):
                        yield Label(escape(name), classes="pick-name")
                        yield Input(
                            value=str(value),
                            placeholder="AS KS QS JS TS / 9H 8H 7H 6H 5H / 4D 3D 2D",
                            id=f"q{qi}-{s}",
                            classes="rows",
                        )
            elif q.kind == "melds":
                for kind, name, points in q.choices or ():
                    with Horizontal(classes="q-row"):
                        yield Label(f"{escape(words().pgettext('combination', name))} ({points})", classes="meld-name")
                        for s in range(n):
                            got = pre[s].get(kind, "") if isinstance(pre, list) and s < len(pre) else ""
                            yield Input(
                                value=str(got or ""),
                                type="integer",
                                placeholder=self.names[s][:6],
                                id=f"q{qi}-{s}-{kind}",
                                classes="count",
                            )

        yield Static(
            "[dim]"
            + _(
                "Enter: next box · an empty box counts 0 · ← → or a digit chooses a player · "
                "Ctrl+S checks the deal and shows its scores"
            )
            + "[/dim]",
            classes="q-label",
        )

    def on_mount(self) -> None:
        for qi in range(len(self.questions)):
            self._update_sum(qi)

    @on(Input.Changed)
    def changed(self, event: Input.Changed) -> None:
        qi = int((event.input.id or "q0").split("-")[0][1:])
        self._update_sum(qi)

    def _update_sum(self, qi: int) -> None:
        q = self.questions[qi]
        if q.kind != "counts":
            return
        total = 0
        for s in range(len(self.names)):
            text = self.query_one(f"#q{qi}-{s}", Input).value.strip()
            total += int(text) if text.lstrip("-").isdigit() else 0
        sum_box = self.query_one(f"#q{qi}-sum", Static)
        if q.total is None:
            sum_box.update(_("{n} in all").format(n=number(total)))
            return
        colour = "green" if total == q.total else ("red" if total > q.total else "yellow")
        sum_box.update(f"[{colour}]" + _("{n} of {total}").format(n=number(total), total=number(q.total)) + "[/]")

    def answers(self) -> dict[str, Any]:
        """The outcome as the keeper takes it; a box left empty counts 0, a player not chosen is an error."""
        out: dict[str, Any] = {}
        n = len(self.names)
        for qi, q in enumerate(self.questions):
            if q.kind == "counts":
                values = []
                for s in range(n):
                    text = self.query_one(f"#q{qi}-{s}", Input).value.strip()
                    if text and not text.isdigit():
                        raise ValueError(
                            _("{question}: {name}'s {text} is not a whole number").format(
                                question=question_label(q, words()), name=self.names[s], text=repr(text)
                            )
                        )
                    values.append(int(text) if text else 0)
                out[q.key] = values
            elif q.kind in ("seat", "yesno"):
                v = self.query_one(f"#q{qi}-0", Picker).value
                if v is None:
                    raise ValueError(
                        (_("{question} — choose a player") if q.kind == "seat" else _("{question} — yes or no")).format(
                            question=question_label(q, words())
                        )
                    )
                out[q.key] = bool(v) if q.kind == "yesno" else v
            elif q.kind in ("seats", "order"):
                seats = [self.query_one(f"#q{qi}-{i}", Picker).value for i in range(q.size or n)]
                if q.kind == "order" and q.minimum is not None and q.minimum < (q.size or n):
                    while seats and seats[-1] is None and len(seats) > q.minimum:
                        seats.pop()
                if None in seats:
                    raise ValueError(
                        _("{question} — choose a player for each place").format(question=question_label(q, words()))
                    )
                out[q.key] = seats
            elif q.kind == "rows":
                out[q.key] = [self.query_one(f"#q{qi}-{s}", Input).value.strip() for s in range(n)]
            elif q.kind == "melds":
                per: list[dict[str, int]] = [{} for _ in range(n)]
                for kind, name, _points in q.choices or ():
                    for s in range(n):
                        text = self.query_one(f"#q{qi}-{s}-{kind}", Input).value.strip()
                        if text and not text.isdigit():
                            raise ValueError(
                                _("{question}: {name}'s {text} is not a whole number").format(
                                    question=words().pgettext("combination", name), name=self.names[s], text=repr(text)
                                )
                            )
                        if text and int(text):
                            per[s][kind] = int(text)
                out[q.key] = per
        return out
