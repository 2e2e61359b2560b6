"""The table screen: what the person sees at the table, and the game loop of one match.

Everything drawn comes from ``session.view()`` (the person's view).  Computer
players think off the UI thread on their own views and act no faster than the
chosen delay; chance events are applied at once; the table stops at the
person's turns and after each deal.  Every decision is a list of the view's
legal actions (or the hand, for cards, or the rows, for Chinese poker), and any
decision can also be typed: the text goes through ``Match.parse_action``, so
decision kinds added later work here as a plain list and as typed text.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.table import Table as RichTable
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static

from ..core.cards import CARDS
from ..classic.chinese import Arrange, Arrangements
from ..classic.contracts import CHINESE, DOMINO
from ..core.errors import BarbuError
from ..agents.hint import hint
from ..guide import Guide, rules_guide, settlement_words
from ..guide import Table as GuideTable
from ..records.barbu import trick_winner
from ..classic.view import HIDDEN, View
from . import bindings
from .dialogs import DealOverDialog, InfoDialog, MatchOverDialog
from .labels import (RulesInfo, action_label, arrangement_text, card_markup, cards_markup,
                     contract_label, doubles_short, doubles_text, doubling_notes, layout_lines, move_text, prompt, result_label,
                     rules_info, seat_name, signed, taken_text)
from .session import Session
from .widgets import ArrangeChooser, ChoiceList, CommandInput, HandView

MAX_LISTED = 1000  # longer choice lists are typed (the first ones are still listed)
COMMANDS = {"help": "help", "?": "help", "last": "last_trick", "last trick": "last_trick", "tricks": "last_trick",
            "scores": "scoresheet", "scoresheet": "scoresheet", "sheet": "scoresheet", "save": "save",
            "quit": "quit", "exit": "quit", "hint": "hint", "undo": "take_back", "take back": "take_back"}


def running_totals(v: View, deals: int) -> list:
    """Totals after the first ``deals`` deals, from the view's public results."""
    totals = [0] * v.players
    for r in v.results[:deals]:
        totals = [a + b for a, b in zip(totals, r.added)]
    return totals


def is_card(a: Any) -> bool:
    return isinstance(a, int) and not isinstance(a, bool)


def signed_points(x: int) -> str:
    return f"+{x}" if x > 0 else str(x)


def guide_renderables(guide: Guide) -> list:
    """The rules guide as Rich renderables for the help screen: headings, paragraphs, lists, tables."""
    out: list = [Text(guide.title, style="bold underline")]
    for s in guide.sections:
        out.append(Text("\n" + s.heading, style="bold"))
        for b in s.blocks:
            if isinstance(b, str):
                out.append(Text(b))
            elif isinstance(b, GuideTable):
                t = RichTable(*b.header, box=box.SIMPLE, show_edge=False, expand=True)
                for r in b.rows:
                    t.add_row(*r)
                out.append(t)
            else:
                out.extend(Text(f" • {item}") for item in b)
    return out


class TableScreen(Screen):
    """The table of one match with one person and computer players."""

    BINDINGS = bindings.TABLE

    def __init__(self, session: Session, delay: float = 0.6) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.info: RulesInfo = rules_info(str(session.match.rules))
        self.zone: str | None = None  # where Enter acts: "hand", "list" or "arrange"
        self.choices: list[Any] = []  # the actions behind the list's lines
        self.decision_at = -1  # the move number the current decision widgets were built for
        self.thinking: int | None = None  # the computer seat whose move is under way
        self.paused = False  # an end-of-deal or end-of-match dialog is open
        self.recent: deque[str] = deque(maxlen=4)

    # ---------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="top"):
            yield Static(id="status")
            yield Static(id="seats")
        yield Static(id="trick")
        yield HandView(id="hand")
        with Vertical(id="decision"):
            yield Static(id="prompt")
            yield ChoiceList(id="choices")
            yield ArrangeChooser(id="arrange")
        yield Static(id="log")
        with Vertical(id="bottom"):
            yield Static(id="message")
            yield CommandInput(placeholder="type a card (qh), an action (no-queens, trump h, double 1 3, pass), "
                                           "or help", id="command")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#trick").border_title = "Table"
        self.query_one("#status").border_title = "Deal"
        self.query_one("#seats").border_title = "Players (▶ to play, D dealer)"
        self.query_one("#decision").border_title = "Your decision"
        self.query_one(CommandInput).focus()
        self.advance()

    # ---------------------------------------------------------------- the game loop
    @property
    def waiting_for_human(self) -> bool:
        """True when the table waits for the person's decision (and nothing else is open)."""
        return not self.paused and self.thinking is None and self.session.human_to_act()

    def advance(self) -> None:
        """Play chance events, report finished deals, start a computer move, or stop at the person's turn."""
        if self.paused or self.thinking is not None:
            return
        s = self.session
        while True:
            done = s.finished_deals()
            if done:
                self._save_quietly()
                self.redraw()
                self._show_deal_over(done)
                return
            actor = s.to_act()
            if actor is None:
                self.redraw()
                self._show_match_over()
                return
            if actor < 0:  # chance: the draw for the first dealer, or a deal
                s.play_chance()
                continue
            if actor == s.seat:
                self.redraw()
                return
            self.thinking = actor
            self.redraw()
            self.run_worker(self._computer_move(actor, s.moves), group="computer")
            return

    async def _computer_move(self, seat: int, moves: int) -> None:
        """One computer move: the agent sees only its seat's view, and takes at least ``delay`` seconds."""
        s = self.session
        view = s.bot_view(seat)
        start = time.monotonic()
        problem = ""
        try:
            action = await asyncio.to_thread(s.agents[seat].act, view)
        except Exception as e:  # a broken agent must not end the person's game
            action, problem = None, f"{type(e).__name__}: {e}"
        wait = self.delay - (time.monotonic() - start)
        if wait > 0:
            await asyncio.sleep(wait)
        if s.moves != moves:  # the match moved on meanwhile (it cannot, but never apply a stale move)
            self.thinking = None
            return
        try:
            if action is None:
                raise BarbuError(problem)
            s.apply_bot(seat, action)
        except Exception as e:  # an illegal or malformed choice: the state is unchanged, play on
            action = random.Random(moves).choice(view.legal)
            self.say(f"seat {seat}'s computer player failed ({e}); it played a random legal move", error=True)
            s.apply_bot(seat, action)
        self.thinking = None
        self._note(seat, action)
        self.advance()

    def _note(self, seat: int, action: Any) -> None:
        """Log a move as the person may know it: another seat's secret choice shows only as made."""
        v = self.session.view()
        shown = v.deal_actions[-1] if v.deal_actions else action
        text = "a secret choice" if shown is HIDDEN else move_text(shown, seat, v, self.info)
        self.recent.append(f"{seat_name(seat, self.session.seat)}: {text}")

    def submit(self, choice: Any) -> bool:
        """The person's choice (an action or typed text): applied, or refused with the reason."""
        s = self.session
        if self.paused:
            return False
        if not s.human_to_act():
            actor = s.to_act()
            self.say("The match is over." if actor is None else
                     f"Wait: it is {seat_name(actor, s.seat)}'s turn, not yours.", error=True)
            return False
        try:
            action = s.apply_human(choice)
        except BarbuError as e:
            self.say(f"Not allowed: {e}", error=True)
            return False
        self.say("")
        self._note(s.seat, action)
        self.advance()
        return True

    def _save_quietly(self) -> None:
        try:
            self.session.save()
        except OSError as e:
            self.say(f"Could not save the record: {e}", error=True)

    # ---------------------------------------------------------------- drawing
    def say(self, text: str, error: bool = False) -> None:
        msg = self.query_one("#message", Static)
        msg.set_class(error, "error")
        msg.update(escape(text))

    def redraw(self) -> None:
        v = self.session.view()
        self._draw_title(v)
        self.query_one("#status", Static).update(self._status_text(v))
        self.query_one("#seats", Static).update(self._seats_table(v))
        self._draw_table(v)
        self._draw_decision(v)
        self.query_one("#log", Static).update(" · ".join(self.recent))

    def _draw_title(self, v: View) -> None:
        s = self.session
        over = " · match over" if s.is_over else ""
        self.query_one("#title", Static).update(
            f"[b]barbu[/b] — {escape(v.rules)} · deal {min(v.deal_number, self.info.total_deals)} of "
            f"{self.info.total_deals} · you are seat {s.seat}{over}")

    def _status_text(self, v: View) -> str:
        lines = []
        if v.dealer >= 0:
            lines.append(f"Dealer: {seat_name(v.dealer, v.seat)}" + (
                f" · declarer: {seat_name(v.declarer, v.seat)}" if v.declarer != v.dealer else ""))
        lines.append(f"Contract: [b]{escape(contract_label(self.info, v))}[/b]")
        c = self.info.contract(v.contract)
        if c is not None and self.info.rules.doubling != "none":
            lines.append(f"Doubles: {doubles_short(v)}."
                         if v.doubles else "Doubles: none")
        if v.set_aside:
            lines.append(f"Set aside, face up: {cards_markup(v.set_aside)}")
        if v.phase == "declare" and v.declarer != v.seat and v.contracts_left[v.declarer]:
            names = ", ".join(self.info.contract_name(k) for k in self.info.contracts
                              if k in v.contracts_left[v.declarer])
            lines.append(f"[dim]Still to declare by {seat_name(v.declarer, v.seat)}: {escape(names)}[/]")
        return "\n".join(lines)

    def _seats_table(self, v: View) -> Table:
        s = self.session
        t = Table(box=None, padding=(0, 1), expand=True)
        for col, just in (("", "left"), ("seat", "right"), ("player", "left"), ("cards", "right"),
                          ("tricks", "right"), ("taken", "left"), ("total", "right")):
            t.add_column(col, justify=just, no_wrap=col != "taken")  # type: ignore[arg-type]
        for seat in range(v.players):
            marks = ("▶" if v.to_act == seat else " ") + ("D" if seat == v.dealer else " ")
            t.add_row(marks, str(seat), s.who(seat), str(v.hand_sizes[seat]),
                      str(v.tricks_won[seat]), Text.from_markup(taken_text(v, self.info, seat)),
                      str(v.totals[seat]))
        return t

    def _draw_table(self, v: View) -> None:
        w = self.query_one("#trick", Static)
        c = self.info.contract(v.contract)
        me = v.seat
        if v.phase in ("draw", "deal", "over"):
            w.update("The match is over." if v.phase == "over" else "Dealing…")
        elif v.phase == "declare":
            w.update(f"{seat_name(v.declarer, me).capitalize()} {'are' if v.declarer == me else 'is'} "
                     f"choosing the contract.")
        elif v.phase in ("trump", "rank"):
            what = "trumps" if v.phase == "trump" else "the starting rank"
            w.update(f"{seat_name(v.declarer, me).capitalize()} {'name' if v.declarer == me else 'names'} {what}.")
        elif v.phase == "doubling":
            who = seat_name(v.to_act, me) if v.to_act is not None else ""
            w.update(f"Doubling round — {who} to call.\nDoubles so far: {doubles_text(v)}")
        elif c is not None and (c.kind == DOMINO or any(v.layout)):
            lines = layout_lines(v, self.info)
            if v.finished:
                lines.append("Out: " + ", ".join(seat_name(x, me) for x in v.finished))
            w.update("\n".join(lines))
        elif c is not None and c.kind == CHINESE:
            arranged = sum(1 for a in v.deal_actions if a is HIDDEN or isinstance(a, Arrange))
            w.update(f"Chinese poker: {arranged} of {v.players} players have laid out their rows face down; "
                     f"all are shown together at the end.")
        else:
            w.update(self._trick_text(v))

    def _trick_text(self, v: View) -> str:
        me = v.seat
        trump = v.trump if self.info.contract(v.contract) and self.info.contract(v.contract).trump else None
        lines = []
        if v.trick or not v.tricks:
            cells = []
            leader = v.leader
            for i in range(v.players):
                seat = (leader + i) % v.players
                if i < len(v.trick):
                    card = card_markup(v.trick[i], "bold")
                elif seat == v.to_act:
                    card = "[reverse] ? [/]"
                else:
                    card = "[dim]·[/]"
                cells.append(f"{seat_name(seat, me)}: {card}")
            verb = "led" if v.trick else ("lead" if leader == me else "leads")
            lines.append(f"Trick {len(v.tricks) + 1} — {seat_name(leader, me)} {verb}:   " + "    ".join(cells))
        else:
            leader, cards = v.tricks[-1]
            winner = trick_winner(leader, cards, trump, v.players)
            cells = [f"{seat_name((leader + i) % v.players, me)}: {card_markup(c)}" for i, c in enumerate(cards)]
            lines.append(f"Trick {len(v.tricks)} won by [b]{seat_name(winner, me)}[/b]:   " + "    ".join(cells))
            lines.append(f"{seat_name(winner, me).capitalize()} to lead.")
        if v.trick and v.tricks:
            leader, cards = v.tricks[-1]
            winner = trick_winner(leader, cards, trump, v.players)
            lines.append(f"[dim]Previous trick, won by {seat_name(winner, me)}: " + ", ".join(
                f"{card_markup(c)} ({seat_name((leader + i) % v.players, me)})" for i, c in enumerate(cards)) + "[/]")
        return "\n".join(lines)

    def _draw_decision(self, v: View) -> None:
        hand = self.query_one(HandView)
        choices = self.query_one(ChoiceList)
        arrange = self.query_one(ArrangeChooser)
        box = self.query_one("#decision")
        s = self.session
        if not self.waiting_for_human:
            self.zone = None
            hand.show(v.hand)
            choices.display = False
            arrange.display = False
            if self.thinking is not None:
                text = f"{seat_name(self.thinking, s.seat).capitalize()} ({s.who(self.thinking)}) is playing…"
            elif s.is_over:
                text = "The match is over."
            else:
                text = "…"
            self.query_one("#prompt", Static).update(text)
            box.set_class(False, "active")
            return
        box.set_class(True, "active")
        legal = v.legal
        cards = [a for a in legal if is_card(a)] if len(legal) <= MAX_LISTED else []
        hand.show(v.hand, cards, active=bool(cards))
        if self.decision_at == s.moves:
            return  # same decision: keep the cursors where the person left them
        self.decision_at = s.moves
        text = prompt(v, self.info)
        notes = doubling_notes(v, self.info, legal) if v.phase == "doubling" else []
        if isinstance(legal, Arrangements):
            self.zone = "arrange"
            choices.display = False
            arrange.display = True
            arrange.load(legal.sensible())
        else:
            arrange.display = False
            listed = legal if len(legal) <= MAX_LISTED else [legal[i] for i in range(MAX_LISTED)]
            self.choices = [a for a in listed if not is_card(a)]
            choices.display = bool(self.choices)
            if self.choices:
                choices.set_choices([action_label(a, v, self.info) for a in self.choices])
                if len(legal) > MAX_LISTED:
                    notes.append(f"{len(legal)} choices: the first {MAX_LISTED} are listed; type any other.")
            self.zone = "hand" if cards else "list"
        self.query_one("#prompt", Static).update(
            "\n".join([f"[b]{escape(text)}[/b]"] + [escape(n) for n in notes]))

    # ---------------------------------------------------------------- keys and clicks
    @on(CommandInput.Nav)
    def on_nav(self, event: CommandInput.Nav) -> None:
        if not self.waiting_for_human:
            return
        key = event.key
        hand = self.query_one(HandView)
        choices = self.query_one(ChoiceList)
        if self.zone == "arrange":
            arrange = self.query_one(ArrangeChooser)
            arrange.move({"up": -1, "down": 1}.get(key, 0), {"left": -1, "right": 1}.get(key, 0))
            return
        if key in ("left", "right"):
            if hand.active:
                self.zone = "hand"
                hand.move(-1 if key == "left" else 1)
        elif choices.display and self.choices:
            if self.zone == "list":
                if key == "up":
                    choices.action_cursor_up()
                else:
                    choices.action_cursor_down()
            self.zone = "list"
        elif hand.active:
            hand.jump_suit(-1 if key == "up" else 1)

    @on(CommandInput.Submitted)
    async def on_command(self, event: CommandInput.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if not text:
            self.activate()
            return
        command = COMMANDS.get(" ".join(text.lower().split()))
        if command:
            await self.run_action(command)
            return
        self.submit(text)

    def activate(self) -> None:
        """Enter on an empty command line: choose what the cursor is on."""
        if not self.waiting_for_human:
            if not self.paused and not self.session.is_over:
                self.say("The computer players are playing; your turn will come.")
            return
        if self.zone == "hand":
            card = self.query_one(HandView).current()
            if card is not None:
                self.submit(card)
        elif self.zone == "list":
            index = self.query_one(ChoiceList).highlighted
            if index is not None and index < len(self.choices):
                self.submit(self.choices[index])
        elif self.zone == "arrange":
            a = self.query_one(ArrangeChooser).press()
            if a is not None:
                self.submit(a)

    @on(OptionList.OptionSelected, "#choices")
    def on_choice_clicked(self, event: OptionList.OptionSelected) -> None:
        if event.option_index < len(self.choices):
            self.submit(self.choices[event.option_index])

    def action_card_clicked(self, card: int) -> None:
        if self.zone == "arrange":
            self.say("Arrange the rows below: click a card there, then one of another row to swap them.")
            return
        self.submit(card)

    def action_arrange_clicked(self, row: int, col: int) -> None:
        if self.zone == "arrange":
            self.query_one(ArrangeChooser).click(row, col)

    def action_arrange_confirm(self) -> None:
        if self.zone == "arrange":
            self.submit(self.query_one(ArrangeChooser).arrangement())

    def action_clear(self) -> None:
        self.query_one(CommandInput).value = ""
        self.say("")

    # ---------------------------------------------------------------- commands
    def action_save(self) -> None:
        try:
            path = self.session.save()
        except OSError as e:
            self.say(f"Could not save the record: {e}", error=True)
            return
        self.say(f"Saved to {path}. Resume with: barbu play --resume {path}" if path else "Saving is off.")

    async def action_quit(self) -> None:
        await self.app.action_quit()

    def action_help(self) -> None:
        v = self.session.view()
        c = self.info.contract(v.contract)
        parts = [f"[b]{escape(v.rules)}[/b] — {self.info.total_deals} deals; "
                 f"{'highest' if self.info.highest_wins else 'lowest'} total wins."]
        if c is not None:
            parts.append(f"\n[b]This deal: {escape(contract_label(self.info, v))}[/b]\n{escape(c.help)}")
            if c.heart_ban:
                parts.append(f"Leading hearts: {self.info.rules.heart_lead.replace('_', ' ')}.")
            if c.trump:
                parts.append(f"Trump rules: {self.info.rules.trump_rules} — " + (
                    "when trumps are led you must head the trick; a void player must trump and overtrump."
                    if self.info.rules.trump_rules == "classic" else
                    "a void player must trump and overtrump when he can; no duty to head a trump lead."))
            if c.kind == DOMINO:
                parts.append(f"The ace is {self.info.rules.domino_ace} in the rows.")
        if v.phase == "doubling":
            parts.append("\n" + "\n".join(escape(n) for n in doubling_notes(v, self.info, v.legal)))
        parts.append("\n" + bindings.KEYS_HELP + "\n")
        body = Group(Text.from_markup("\n".join(parts)), *guide_renderables(rules_guide(self.info.rules)))
        self.app.push_screen(InfoDialog("Help and rules", body))

    def action_hint(self) -> None:
        """What the strongest computer player would do from your seat (your view only), and why."""
        if not self.waiting_for_human:
            self.notify("A hint is for your turn.", timeout=4)
            return
        self.notify("Thinking about your hand…", timeout=3)
        self.run_worker(self._hint(), group="hint", exclusive=True)

    async def _hint(self) -> None:
        s = self.session
        v = s.view()
        moves = s.moves
        def label(a: Any) -> str:
            return CARDS[a].display() if isinstance(a, int) and not isinstance(a, bool) else str(a)
        h = await asyncio.to_thread(hint, v, label, None, 60, 1.5, self.info.highest_wins)
        if s.moves != moves:
            return
        self.app.push_screen(InfoDialog("Hint", f"[b]The strongest computer player would choose "
                                                f"{escape(label(h.action))}.[/b]\n\n{escape(h.reason)}\n\n"
                                                "[dim]It sees only what you see.[/dim]"))

    def action_take_back(self) -> None:
        """Undo back to your previous decision of this deal: the others here are all computer players."""
        if self.thinking is not None or self.paused:
            self.notify("Wait for the computer player to finish its move.", timeout=4)
            return
        try:
            undone = self.session.take_back()
        except BarbuError as e:
            self.notify(str(e).capitalize() + ".", severity="warning", timeout=5)
            return
        self.notify(f"Took back {undone} move{'s' if undone != 1 else ''}: your turn again.", timeout=4)
        self.redraw()
        self.advance()

    def action_last_trick(self) -> None:
        v = self.session.view()
        c = self.info.contract(v.contract)
        if not v.tricks:
            body = "No trick has been completed in this deal yet."
        elif c is not None and (c.kind == DOMINO or any(v.layout)):
            body = "Cards laid so far, in order:\n" + "\n".join(
                f"  {seat_name(seat, v.seat)}: {card_markup(cards[0])}" for seat, cards in v.tricks[-12:])
        else:
            trump = v.trump if c is not None and c.trump else None
            rows = []
            for i, (leader, cards) in enumerate(v.tricks, start=1):
                winner = trick_winner(leader, cards, trump, v.players)
                played = "  ".join(f"{seat_name((leader + j) % v.players, v.seat)} {card_markup(x)}"
                                   for j, x in enumerate(cards))
                rows.append(f"  {i:>2}. {played}   → {seat_name(winner, v.seat)}")
            body = "[b]Last trick[/b]\n" + rows[-1] + "\n\n[b]All tricks of this deal[/b]\n" + "\n".join(rows)
        self.app.push_screen(InfoDialog("Tricks", body))

    def action_scoresheet(self) -> None:
        self.app.push_screen(InfoDialog("Scoresheet", self._scoresheet(self.session.view())))

    def _scoresheet(self, v: View) -> Table:
        t = Table(title=f"{v.rules} — {len(v.results)} of {self.info.total_deals} deals played")
        t.add_column("deal", justify="right")
        t.add_column("declarer")
        t.add_column("contract")
        t.add_column("doubles")
        for s in range(v.players):
            t.add_column(seat_name(s, v.seat), justify="right")
        running = [0] * v.players
        for r in v.results:
            added = r.added
            running = [a + b for a, b in zip(running, added)]
            t.add_row(str(r.number), seat_name(r.declarer, v.seat),
                      result_label(self.info, r) + ("" if r.played else " (not played)"),
                      str(len(r.doubles)),
                      *(f"{signed(x)} → {tot}" for x, tot in zip(added, running)))
        t.add_section()
        t.add_row("", "", "total", "", *(str(x) for x in v.totals))
        return t

    # ---------------------------------------------------------------- deal and match ends
    def _show_deal_over(self, results: list) -> None:
        self.paused = True
        v = self.session.view()
        parts = []
        for r in results:
            parts.append(f"[b]Deal {r.number}: {escape(result_label(self.info, r))}[/b], "
                         f"declared by {seat_name(r.declarer, v.seat)}")
            if not r.played:
                parts.append("Not played: nobody doubled a negative contract, so its points were shared.")
            if r.doubles:
                parts.append("Doubles settled pair by pair (the difference of the two scores, twice if redoubled):")
                parts += [f"  {escape(line)}" for line in
                          settlement_words(r.base, r.doubles, lambda s: seat_name(s, v.seat))]
            c = self.info.contract(r.contract)
            if r.arrangements:
                for s, a in enumerate(r.arrangements):
                    parts.append(f"  {seat_name(s, v.seat)}: {arrangement_text(a)}")
            elif c is not None and c.kind == DOMINO and r.finishing:
                parts.append("Finishing order: " + ", ".join(seat_name(x, v.seat) for x in r.finishing))
            elif r.tricks:
                leader, cards = r.tricks[-1]
                winner = trick_winner(leader, cards, r.trump if c is not None and c.trump else None, v.players)
                parts.append(f"Last trick, won by {seat_name(winner, v.seat)}: " + ", ".join(
                    f"{card_markup(x)} ({seat_name((leader + i) % v.players, v.seat)})" for i, x in enumerate(cards)))
            t = Table(box=None)
            t.add_column("")
            for s in range(v.players):
                t.add_column(seat_name(s, v.seat), justify="right")
            t.add_row("contract points", *(str(x) for x in r.base))
            if r.doubles:
                t.add_row("doubles", *(signed_points(x - y) for x, y in zip(r.scores, r.base)))
                t.add_row("this deal", *(str(x) for x in r.scores))
            if r.series:
                t.add_row("series points", *(str(x) for x in r.series))
            t.add_row("running total", *(str(x) for x in running_totals(v, r.number)))
            parts.append(t)
        body = Group(*(Text.from_markup(p) if isinstance(p, str) else p for p in parts),
                     Text(f"\nSaved to {self.session.save_path}." if self.session.save_path else ""))

        def resume(_: Any = None) -> None:
            self.paused = False
            self.advance()

        self.app.push_screen(DealOverDialog("Deal over", body), resume)

    def _show_match_over(self) -> None:
        self.paused = True
        self._save_quietly()
        v = self.session.view()
        standings = sorted(range(v.players), key=lambda s: (-v.totals[s] if self.info.highest_wins
                                                             else v.totals[s], s))
        t = Table(title=f"Final standings — {v.rules}")
        t.add_column("place", justify="right")
        t.add_column("seat")
        t.add_column("player")
        t.add_column("total", justify="right")
        for place, s in enumerate(standings, start=1):
            t.add_row(str(place), seat_name(s, v.seat), self.session.who(s), str(v.totals[s]))
        self.app.push_screen(MatchOverDialog("Match over", t), lambda _=None: self.app.exit(0))
