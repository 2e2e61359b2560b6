"""The exact solver: the compiled and the pure search agree, and both agree with a brute force through the engine."""

from __future__ import annotations

import itertools

import pytest

from barbu.classic.match import Match
from barbu.core.cards import CARDS, CardSet, cards_of
from barbu.solver import pure
from barbu.solver.position import Spec, State, objective, state_of
from barbu.solver.samples import DealSample, random_deals

fast = pytest.importorskip("barbu.solver._fast", reason="the C core is not built")


def match_at(d: DealSample, i: int) -> Match:
    """The engine's match at the i-th card-play decision of a sampled deal."""
    m = d.match.clone()
    for leader, cards in d.tricks:
        for c in cards:
            if i == 0:
                return m
            m.apply(CARDS[c])
            i -= 1
    return m


def ending(d: DealSample, cards_each: int) -> int | None:
    """The first decision at which no hand holds more than ``cards_each`` cards (None if the deal
    stopped before: a deal decided by its penalty cards ends when they are all taken)."""
    for i, st in enumerate(d.positions):
        if max(h.bit_count() for h in st.hands) <= cards_each:
            return i
    return None


def brute_force(m: Match, seat: int, most: bool = True) -> int:
    """Paranoid minimax through the engine itself, with no pruning: ``seat`` maximises its base points
    (or, with ``most=False``, holds them as low as it can while everybody else plays to raise them)."""
    deals = len(m.results)
    mine, theirs = (max, min) if most else (min, max)

    def value(x: Match) -> int:
        if len(x.results) > deals:
            return x.results[-1].base[seat]
        outcomes = []
        for c in cards_of(x.legal_mask()):
            y = x.clone()
            y.apply(c)
            outcomes.append(value(y))
        return mine(outcomes) if x.turn == seat else theirs(outcomes)

    return value(m)


CASES = [
    "classic",
    "italian",
    "salad(players=5)",
    "salad(players=3)",
    "french(players=3)",
    "french(players=6)",
    "scottish",
    "classic(ravage_city=true)",
    "classic(heart_lead=until_broken)",
]


@pytest.mark.parametrize("rules", CASES)
def test_solver_matches_brute_force_through_the_engine(rules):
    checked = 0
    for d in itertools.islice(random_deals(rules, 5), 8):
        i = ending(d, 2)
        if i is None:
            continue
        checked += 1
        m = match_at(d, i)
        st = d.positions[i]
        assert state_of(m) == st
        expected = tuple(brute_force(m, s) for s in range(m.n))
        assert fast.solve(d.spec, st) == expected, (rules, i)
        assert pure.solve(d.spec, st) == expected, (rules, i)
    assert checked >= 3


@pytest.mark.parametrize("rules", CASES)
def test_compiled_and_pure_solvers_agree(rules):
    for d in itertools.islice(random_deals(rules, 9), 5):
        starts = [ending(d, 4 if d.spec.n <= 4 else 3), ending(d, 3), len(d.positions) - 1]
        states = [
            d.positions[i] for i in starts if i is not None and max(h.bit_count() for h in d.positions[i].hands) <= 4
        ]
        assert fast.solve_many(d.spec, states) == pure.solve_many(d.spec, states), rules


def test_trumps_duties_are_searched():
    """Trumps deals in both trump rules (heading a trump lead, trumping when void) agree with brute force."""
    seen = {0: 0, 1: 0}
    for rules in ("classic", "italian"):
        for d in itertools.islice(random_deals(rules, 21), 60):
            if d.spec.trump < 0 or seen[d.spec.head] >= 4:
                continue
            i = ending(d, 2)
            assert i is not None  # Trumps deals are played to the last trick
            m = match_at(d, i)
            expected = tuple(brute_force(m, s) for s in range(m.n))
            assert fast.solve(d.spec, d.positions[i]) == expected
            seen[d.spec.head] += 1
    assert seen[0] and seen[1]


def test_a_worked_ending_at_no_king():
    """Two cards each at No King of hearts: whoever wins the spade trick leads into the King.

    North holds K♥ 2♠ and must lead the spade (hearts may not be led); West wins
    with 6♠ or 7♠ and, whatever he keeps, his last spade beats South's: he takes the King.
    """
    m = Match("classic")
    c = m.contract_by_key["no-king"]
    spec = Spec(4, -1, 0, 1, 0, tuple(c.card_value.get(k, 0) for k in range(52)), (), 0, c.penalty_mask)
    hands = tuple(CardSet(h.split()).mask for h in ("KH 2S", "AH 3S", "4S 5S", "6S 7S"))
    state = State(hands, (0,) * 4, (0,) * 4, (), 0, (), 0)
    assert fast.solve(spec, state) == (0, 0, 0, -20)
    assert pure.solve(spec, state) == (0, 0, 0, -20)
    # Give South the 8♠ instead of the 5♠: if West wins the first trick South's 8♠ takes the King,
    # so South (playing for himself) wins the first trick and leads 4♠ under West's last spade.
    hands = tuple(CardSet(h.split()).mask for h in ("KH 2S", "AH 3S", "4S 8S", "6S 7S"))
    state = state._replace(hands=hands)
    assert fast.solve(spec, state) == (0, 0, 0, -20)
    assert pure.solve(spec, state) == (0, 0, 0, -20)
    # Make East's 3♠ a 9♠: East must win the first trick, then lead his A♥, and North's K♥ falls on it.
    hands = tuple(CardSet(h.split()).mask for h in ("KH 2S", "AH 9S", "4S 8S", "6S 7S"))
    state = state._replace(hands=hands)
    assert fast.solve(spec, state) == (0, -20, 0, 0)
    assert pure.solve(spec, state) == (0, -20, 0, 0)


def test_the_solver_counts_points_already_taken():
    d = next(random_deals("classic(stop_when_decided=false)", 4))
    last = d.positions[-1]  # one card left to play: the result is known
    assert fast.solve(d.spec, last) == d.base
    assert pure.solve(d.spec, last) == d.base


@pytest.mark.parametrize("rules", ["classic", "italian", "salad(players=5)", "scottish", "classic(ravage_city=true)"])
def test_move_values_are_the_values_after_each_card(rules):
    """Each legal card's value is the brute force's after that card; the best of them is the position's value."""
    checked = 0
    for d in itertools.islice(random_deals(rules, 13), 8):
        i = ending(d, 2)
        if i is None:
            continue
        st = d.positions[i]
        m = match_at(d, i)
        seat = m.turn
        values = fast.move_values(d.spec, [st])[0]
        assert pure.move_values(d.spec, [st])[0] == values
        assert [c for c, _ in values] == list(cards_of(m.legal_mask()))
        for card, value in values:
            after = m.clone()
            after.apply(CARDS[card])
            assert value == brute_force(after, seat), (rules, card)
        assert max(v for _, v in values) == fast.solve(d.spec, st)[seat]
        checked += 1
    assert checked >= 3


def test_move_values_of_a_longer_ending_agree():
    for d in itertools.islice(random_deals("classic", 17), 6):
        i = ending(d, 4)
        if i is not None:
            st = d.positions[i]
            assert fast.move_values(d.spec, [st]) == pure.move_values(d.spec, [st])


def settled_seats(spec: Spec, st: State) -> list[tuple[int, int]]:
    """The seats whose future points the pure solver's quick rule settles at this trick start: (seat, points)."""
    solver = pure._Solver(spec, st)
    return [(s, v) for s in range(spec.n) if (v := solver.settled(s)) is not None]


@pytest.mark.parametrize("rules", ["classic", "italian", "french(players=3)", "salad(players=5)"])
def test_settled_endings_match_brute_force(rules):
    """Where a seat can no longer win a trick, or wins all that are left, the solvers stop searching:
    the points they then give are the brute force's, in every contract where that happens."""
    checked = {False: 0, True: 0}  # a seat that takes nothing more, one that takes every trick left
    for d in itertools.islice(random_deals(rules, 31), 40):
        for i, st in enumerate(d.positions):
            if st.trick or max(h.bit_count() for h in st.hands) > 3:
                continue
            sure = [(seat, v) for seat, v in settled_seats(d.spec, st) if checked[seat == st.leader] < 3]
            if not sure:
                continue
            m = match_at(d, i)
            base = pure.accrued(d.spec, st)
            for seat, points in sure:
                assert base[seat] + points == brute_force(m, seat), (rules, i, seat)
                checked[seat == st.leader] += 1
            assert fast.solve(d.spec, st) == pure.solve(d.spec, st)
            break
        if min(checked.values()) >= 3:
            break
    assert min(checked.values()) >= 1, checked  # both rules were met


def test_the_table_kept_between_calls_changes_no_answer():
    """The compiled table outlives a call: solving the positions of two deals under different rules,
    interleaved and out of order, gives what a fresh pure search gives."""
    deals = [next(random_deals("classic", 41)), next(random_deals("french(players=3)", 41))]
    work = []
    for d in deals:
        picks = [i for i, st in enumerate(d.positions) if max(h.bit_count() for h in st.hands) <= 4]
        work += [(d, i) for i in picks[::2]]
    work = work[::-1] + work[::3]
    for d, i in sorted(work, key=lambda w: (w[1] * 7919) % 13):
        st = d.positions[i]
        assert fast.solve(d.spec, st) == pure.solve(d.spec, st)
        assert fast.move_values(d.spec, [st]) == pure.move_values(d.spec, [st])


def test_ducking_for_good_counts_the_low_cards():
    """A seat ducks every lead for good when, in each suit the others hold, all its cards are under theirs or
    it holds at least as many cards under them as they hold: 2 and 4 of hearts against 3 and 8 do not (8
    is led, then 3, and the 4 wins), 2, 4 and the king against 5 and 8 do."""

    def hearts(*ranks: int) -> int:
        return sum(1 << (13 + r - 2) for r in ranks)

    assert not pure.ducks_all(hearts(2, 4), hearts(3, 8))
    assert pure.ducks_all(hearts(2, 4, 13), hearts(5, 8))
    assert pure.ducks_all(hearts(2, 4), hearts(5, 8))
    assert not pure.ducks_all(hearts(2, 13), hearts(5, 8))
    assert pure.ducks_all(hearts(9, 13), 1 << 3)  # no heart among the others: never led to it


@pytest.mark.parametrize("rules", ["classic", "salad(players=5)", "italian"])
def test_seats_that_duck_for_good_match_brute_force(rules):
    """Where a seat could still win a trick but can duck every lead for good, the solvers settle it at
    nothing more; the brute force through the engine agrees, and so do both solvers."""
    checked = 0
    for d in itertools.islice(random_deals(rules, 57), 300):
        spec = d.spec
        for i, st in enumerate(d.positions):
            if st.trick or spec.trump >= 0 or max(h.bit_count() for h in st.hands) > 3:
                continue
            in_hands = sum(st.hands)
            seats = [
                s
                for s in range(spec.n)
                if pure.ducks_all(st.hands[s], in_hands & ~st.hands[s])
                and any(
                    st.hands[s] & suit and (o := in_hands & ~st.hands[s] & suit) and st.hands[s] & suit > (o & -o)
                    for suit in pure.SUIT_MASK
                )
            ]
            sure = [(s, v) for s, v in settled_seats(spec, st) if s in seats]
            if not sure:
                continue
            m = match_at(d, i)
            base = pure.accrued(spec, st)
            for seat, points in sure:
                assert points == 0 and base[seat] == brute_force(m, seat), (rules, i, seat)
                checked += 1
            assert fast.solve(spec, st) == pure.solve(spec, st)
            break
        if checked >= 4:
            break
    assert checked >= 1


def penalties_only(spec: Spec) -> bool:
    """Every point a penalty, no trumps, no Ravage City: where the compiled search's ducking rules apply."""
    return (
        spec.trump < 0
        and not spec.ravage
        and spec.per_trick <= 0
        and all(v <= 0 for v in spec.values)
        and all(v <= 0 for v in spec.last_tricks)
    )


def loses_then_ducks(spec: Spec, st: State, leads: int, seat: int) -> bool:
    """The compiled search's one-trick look-ahead, written out plainly: before ``seat`` plays to the trick (or
    at its start), it has a card that loses the trick whatever the others play and after which it ducks for
    good (``pure.ducks_all``).  ``leads`` is the legal mask of the seat to play.  Such a card is one under a
    card already winning the trick; at the start, when another hand leads, one under every card of the suit
    that hand may lead (for each suit it may lead; void, any card); when the seat leads, one that another hand
    must follow above (it holds cards of the suit, all higher)."""
    n = spec.n
    if (seat - st.leader) % n < len(st.trick):
        return False
    mine = st.hands[seat]
    in_hands = 0
    for h in st.hands:
        in_hands |= h
    others = in_hands & ~mine

    def ducks_after_one_of(cands: int) -> bool:
        return any(cands >> c & 1 and pure.ducks_all(mine & ~(1 << c), others) for c in range(52))

    def suit(c: int) -> int:
        return pure.SUIT_MASK[c // 13]

    if st.trick:
        led = suit(st.trick[0])
        top = max(c for c in st.trick if suit(c) == led)
        follow = mine & led
        return ducks_after_one_of(follow & ((1 << top) - 1) if follow else mine)
    if st.leader == seat:
        sure = 0
        for c in range(52):
            if leads >> c & 1 and any(
                s != seat and (h := st.hands[s] & suit(c)) and not h & ((1 << c) - 1) for s in range(n)
            ):
                sure |= 1 << c
        return ducks_after_one_of(sure)
    for mask in pure.SUIT_MASK:
        lead = leads & mask
        if lead:
            follow = mine & mask
            if not ducks_after_one_of(follow & ((lead & -lead) - 1) if follow else mine):
                return False
    return True


@pytest.mark.parametrize("rules", ["classic", "italian", "salad(players=5)", "french(players=3)"])
def test_losing_one_trick_then_ducking_matches_brute_force(rules):
    """Where a seat that cannot yet duck every lead for good can lose the trick at hand whatever the others do,
    with a card after which it can, the compiled search settles it at nothing more without playing the trick
    out: the brute force through the engine agrees, when the seat leads, when another seat leads and within
    tricks.  (French points count lowest-wins: solved on the objective, as the players do.)"""
    french = rules.startswith("french")
    checked = {"seat leads": 0, "another leads": 0, "within a trick": 0}
    for d in itertools.islice(random_deals(rules, 63), 400):
        spec = objective(d.spec, -1) if french else d.spec
        if not penalties_only(spec):
            continue
        for i, st in enumerate(d.positions):
            if max(h.bit_count() for h in st.hands) > 3:
                continue
            in_hands = 0
            for h in st.hands:
                in_hands |= h
            todo = []
            for seat in range(spec.n):
                kind = "within a trick" if st.trick else "seat leads" if seat == st.leader else "another leads"
                if (
                    checked[kind] < 4
                    and not pure.ducks_all(st.hands[seat], in_hands & ~st.hands[seat])
                    and loses_then_ducks(spec, st, d.legal[i], seat)
                ):
                    todo.append((seat, kind))
            if not todo:
                continue
            m = match_at(d, i)
            base = pure.accrued(spec, st)
            values = fast.solve(spec, st)
            for seat, kind in todo:
                expected = brute_force(m, seat, most=not french)
                assert base[seat] == (-expected if french else expected), (rules, i, seat)
                assert values[seat] == base[seat], (rules, i, seat)
                checked[kind] += 1
        if min(checked.values()) >= 4:
            break
    assert min(checked.values()) >= 1, checked


@pytest.mark.parametrize("rules", ["classic", "italian", "salad(players=5)", "scottish"])
def test_one_seat_with_a_budget_brackets_the_value(rules):
    """`solve_seat` with no budget is `solve`'s value for that seat in both cores; with a budget too small to
    finish, the bounds it gives still hold the value, and it stops at the budget."""
    for d in itertools.islice(random_deals(rules, 11), 4):
        i = ending(d, 5)
        if i is None:
            continue
        st = d.positions[i]
        exact = fast.solve(d.spec, st)
        for seat in range(d.spec.n):
            assert fast.solve_seat(d.spec, st, seat)[:2] == (exact[seat], exact[seat])
            assert pure.solve_seat(d.spec, st, seat)[:2] == (exact[seat], exact[seat])
            for budget in (1, 50, 400):
                for core in (fast, pure):
                    lo, hi, nodes = core.solve_seat(d.spec, st, seat, budget)
                    assert lo <= exact[seat] <= hi and nodes <= budget
    d = next(random_deals("classic", 1))  # a whole deal is far from done in 1,000 positions
    lo, hi, nodes = fast.solve_seat(d.spec, d.start, 0, 1000)
    assert lo < hi and nodes == 1000
    with pytest.raises(ValueError, match="seat"):
        fast.solve_seat(d.spec, d.start, 4)
    with pytest.raises(ValueError, match="budget"):
        pure.solve_seat(d.spec, d.start, 0, -1)


@pytest.mark.parametrize("rules", ["classic", "italian", "salad(players=5)"])
def test_the_relaxed_game_is_a_floor(rules):
    """The relaxed game (the others hold their cards in common, each bound only by its suit lengths) is a
    floor of the seat's real value: never above the brute force through the engine, and most often equal to
    it (else it would prove nothing)."""
    checked = equal = 0
    for d in itertools.islice(random_deals(rules, 17), 200):
        if not penalties_only(d.spec):
            continue
        i = ending(d, 3 if d.spec.n <= 4 else 2)
        if i is None or d.positions[i].trick:
            continue
        m, st = match_at(d, i), d.positions[i]
        for seat in range(d.spec.n):
            floor = fast.relaxed_floor(d.spec, st, seat)
            value = brute_force(m, seat)
            assert floor <= value, (rules, i, seat)
            checked += 1
            equal += floor == value
        if checked >= 16:
            break
    assert checked >= 12 and equal * 2 >= checked, (checked, equal)
    with pytest.raises(ValueError, match="relaxed"):
        fast.relaxed_floor(d.spec._replace(ravage=-10), d.start, 0)


def test_a_cell_cut_short_proves_a_floor_from_the_relaxed_game():
    """With a budget the real search does not finish in, where every point is a penalty, the compiled
    `solve_seat` spends the last eighth on the relaxed game: its floor holds the exact value and, in some
    cells, is above the static one."""
    ranges = floors = 0
    for d in itertools.islice(random_deals("classic", 6), 80):  # a floor by the third No-something deal
        if not penalties_only(d.spec):
            continue
        st = next((s for s in d.positions if not s.trick and max(h.bit_count() for h in s.hands) == 8), None)
        if st is None:
            continue
        exact = fast.solve(d.spec, st)
        for seat in range(d.spec.n):
            lo, hi, nodes = fast.solve_seat(d.spec, st, seat, 5000)
            assert lo <= exact[seat] <= hi and nodes <= 5000
            if lo < hi:
                ranges += 1
                floors += lo > pure.static_bounds(d.spec, st, seat)[0]
        if floors:
            break
    assert ranges and floors, (ranges, floors)
