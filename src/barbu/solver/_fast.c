/* The solver's compiled core: trick play on card bitmasks, in batches.
 *
 * The twin of barbu/solver/pure.py, function for function and answer for answer:
 * a card is suit * 13 + rank (S H D C, ranks 2..A = 0..12), a hand is a 64-bit
 * mask, and every entry point takes one Spec (the rules of the deal, a tuple) and
 * a batch (a list) so that one call does a lot of work.  See pure.py for the
 * rules in words; the differential tests hold both to the engine's answers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

/* The search counts cards (popcount) at every position: with GCC on x86-64 the whole core is compiled for the
 * processor's POPCNT instruction (without it GCC calls a library routine, a tenth of the search's time), and
 * the module refuses to load where the processor lacks it (every x86-64 processor since 2008 has it), so that
 * `barbu.solver.fast` falls back on the pure twin rather than stop on an illegal instruction. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__POPCNT__)
#pragma GCC push_options
#pragma GCC target("popcnt")
#define BARBU_POPCNT 1
#endif

#define MAXP 6
#define MAXTRICKS 64
#define NLAST 8
#define NCLASSES 8
#define INF (1 << 30)

typedef uint64_t u64;

static const u64 SUIT[4] = {0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39};
#define HEARTS_MASK (0x1FFFULL << 13)

typedef struct {
    int n, trump, head, heart_mode, per_trick;
    int values[52];
    int nlast;
    int last[NLAST];
    int ravage;
    u64 stop, pos_mask, neg_mask, trump_mask;
    int nclasses;  /* distinct nonzero card values, for the transposition keys (-1: too many) */
    u64 classes[NCLASSES];
    int class_value[NCLASSES];
} Spec;

typedef struct {
    u64 hands[MAXP], won[MAXP];
    int tricks_won[MAXP];
    int nwin;
    unsigned char winners[MAXTRICKS];
    int leader, ntrick, hb;
    int trick[MAXP];
    u64 trick_mask, in_hands;
} Pos;

/* ------------------------------------------------------------ reading Python objects */

static int get_long(PyObject *o, long *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

static int get_mask(PyObject *o, u64 *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (v >> 52) {
        PyErr_SetString(PyExc_ValueError, "a card mask has bits above the 52 cards");
        return -1;
    }
    *out = (u64)v;
    return 0;
}

/* A tuple or list of ints of a known length (or any length up to maxlen when len < 0); returns the count. */
static Py_ssize_t get_ints(PyObject *o, long *out, Py_ssize_t len, Py_ssize_t maxlen, const char *what) {
    PyObject *seq = PySequence_Fast(o, what);
    if (!seq) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if ((len >= 0 && k != len) || k > maxlen) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items, got %zd", what, len >= 0 ? len : maxlen, k);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        if (get_long(PySequence_Fast_GET_ITEM(seq, i), &out[i]) < 0) { Py_DECREF(seq); return -1; }
    }
    Py_DECREF(seq);
    return k;
}

static Py_ssize_t get_masks(PyObject *o, u64 *out, Py_ssize_t len, const char *what) {
    PyObject *seq = PySequence_Fast(o, what);
    if (!seq) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k != len) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items, got %zd", what, len, k);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        if (get_mask(PySequence_Fast_GET_ITEM(seq, i), &out[i]) < 0) { Py_DECREF(seq); return -1; }
    }
    Py_DECREF(seq);
    return k;
}

static PyObject *item(PyObject *t, Py_ssize_t i, Py_ssize_t size, const char *what) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != size) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple of %zd fields", what, size);
        return NULL;
    }
    return PyTuple_GET_ITEM(t, i);
}

static int read_spec(PyObject *o, Spec *sp) {
    long v[52];
    memset(sp, 0, sizeof *sp);
    const char *w = "spec";
    PyObject *f;
    for (int i = 0; i < 9; i++) if (!item(o, i, 9, w)) return -1;
    if (get_long(PyTuple_GET_ITEM(o, 0), &v[0]) < 0) return -1;
    sp->n = (int)v[0];
    if (sp->n < 2 || sp->n > MAXP) { PyErr_SetString(PyExc_ValueError, "spec: 2 to 6 players"); return -1; }
    if (get_long(PyTuple_GET_ITEM(o, 1), &v[0]) < 0) return -1;
    sp->trump = (int)v[0];
    if (sp->trump < -1 || sp->trump > 3) { PyErr_SetString(PyExc_ValueError, "spec: trump is -1 or 0..3"); return -1; }
    if (get_long(PyTuple_GET_ITEM(o, 2), &v[0]) < 0) return -1;
    sp->head = v[0] != 0;
    if (get_long(PyTuple_GET_ITEM(o, 3), &v[0]) < 0) return -1;
    sp->heart_mode = (int)v[0];
    if (sp->heart_mode < 0 || sp->heart_mode > 3) { PyErr_SetString(PyExc_ValueError, "spec: heart_mode is 0..3"); return -1; }
    if (get_long(PyTuple_GET_ITEM(o, 4), &v[0]) < 0) return -1;
    sp->per_trick = (int)v[0];
    if (get_ints(PyTuple_GET_ITEM(o, 5), v, 52, 52, "spec values") < 0) return -1;
    for (int c = 0; c < 52; c++) {
        sp->values[c] = (int)v[c];
        if (v[c] > 0) sp->pos_mask |= 1ULL << c;
        if (v[c] < 0) sp->neg_mask |= 1ULL << c;
    }
    Py_ssize_t k = get_ints(PyTuple_GET_ITEM(o, 6), v, -1, NLAST, "spec last_tricks");
    if (k < 0) return -1;
    sp->nlast = (int)k;
    for (int i = 0; i < k; i++) sp->last[i] = (int)v[i];
    if (get_long(PyTuple_GET_ITEM(o, 7), &v[0]) < 0) return -1;
    sp->ravage = (int)v[0];
    f = PyTuple_GET_ITEM(o, 8);
    if (get_mask(f, &sp->stop) < 0) return -1;
    sp->trump_mask = sp->trump >= 0 ? SUIT[sp->trump] : 0;
    int cls_value[NCLASSES];
    for (int c = 0; c < 52 && sp->nclasses >= 0; c++) {
        if (!sp->values[c]) continue;
        int j = 0;
        while (j < sp->nclasses && cls_value[j] != sp->values[c]) j++;
        if (j == sp->nclasses) {
            if (j == NCLASSES) { sp->nclasses = -1; break; }
            cls_value[j] = sp->values[c];
            sp->class_value[j] = sp->values[c];
            sp->classes[j] = 0;
            sp->nclasses++;
        }
        sp->classes[j] |= 1ULL << c;
    }
    return 0;
}

static int read_state(PyObject *o, const Spec *sp, Pos *p) {
    long v[MAXTRICKS];
    int n = sp->n;
    memset(p, 0, sizeof *p);
    const char *w = "state";
    for (int i = 0; i < 7; i++) if (!item(o, i, 7, w)) return -1;
    if (get_masks(PyTuple_GET_ITEM(o, 0), p->hands, n, "state hands") < 0) return -1;
    if (get_masks(PyTuple_GET_ITEM(o, 1), p->won, n, "state won") < 0) return -1;
    if (get_ints(PyTuple_GET_ITEM(o, 2), v, n, n, "state tricks_won") < 0) return -1;
    for (int s = 0; s < n; s++) p->tricks_won[s] = (int)v[s];
    Py_ssize_t k = get_ints(PyTuple_GET_ITEM(o, 3), v, -1, MAXTRICKS, "state winners");
    if (k < 0) return -1;
    p->nwin = (int)k;
    for (int i = 0; i < k; i++) {
        if (v[i] < 0 || v[i] >= n) { PyErr_SetString(PyExc_ValueError, "state: a winner is not a seat"); return -1; }
        p->winners[i] = (unsigned char)v[i];
    }
    if (get_long(PyTuple_GET_ITEM(o, 4), &v[0]) < 0) return -1;
    if (v[0] < 0 || v[0] >= n) { PyErr_SetString(PyExc_ValueError, "state: the leader is not a seat"); return -1; }
    p->leader = (int)v[0];
    k = get_ints(PyTuple_GET_ITEM(o, 5), v, -1, n - 1, "state trick");
    if (k < 0) return -1;
    p->ntrick = (int)k;
    for (int i = 0; i < k; i++) {
        if (v[i] < 0 || v[i] > 51) { PyErr_SetString(PyExc_ValueError, "state: a card is not 0..51"); return -1; }
        p->trick[i] = (int)v[i];
        p->trick_mask |= 1ULL << v[i];
    }
    if (get_long(PyTuple_GET_ITEM(o, 6), &v[0]) < 0) return -1;
    p->hb = v[0] != 0;
    int cards = p->ntrick;
    for (int s = 0; s < n; s++) {
        p->in_hands |= p->hands[s];
        cards += __builtin_popcountll(p->hands[s]);
    }
    /* Every card in one place, and the hands fit the trick: those who have played to it hold one card less. */
    int left = __builtin_popcountll(p->hands[(p->leader + p->ntrick) % n]);
    int ok = __builtin_popcountll(p->in_hands | p->trick_mask) == cards && (left || !p->ntrick);
    for (int s = 0; ok && s < n; s++)
        ok = __builtin_popcountll(p->hands[s]) == left - (((s - p->leader + n) % n) < p->ntrick);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "state: the hands do not fit the trick (each seat holds as many cards "
                        "as tricks are left, one less once it has played to the trick, and no card is in two places)");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ the rules of play */

static inline int top_bit(u64 m) { return 63 - __builtin_clzll(m); }
static inline u64 above(u64 m, int top) { return top >= 63 ? 0 : (m >> top << top); }

static u64 legal_of(const Spec *sp, u64 hand, const Pos *p) {
    if (!p->ntrick) {
        int mode = sp->heart_mode;
        if (mode) {
            u64 others = hand & ~HEARTS_MASK;
            if (others && (mode == 1 || (mode == 2 && !p->nwin) || (mode == 3 && !p->hb))) return others;
        }
        return hand;
    }
    u64 led = SUIT[p->trick[0] / 13];
    u64 follow = hand & led;
    if (sp->trump < 0) return follow ? follow : hand;
    u64 tm = sp->trump_mask;
    u64 played = p->trick_mask & tm;
    if (led == tm) {
        if (follow && sp->head) {
            int top = played ? top_bit(played) + 1 : 0;
            u64 higher = above(follow, top);
            return higher ? higher : follow;
        }
        return follow ? follow : hand;
    }
    if (follow) return follow;
    u64 mine = hand & tm;
    if (!mine) return hand;
    if (!played) return mine;
    u64 over = above(mine, top_bit(played) + 1);
    return over ? over : hand;
}

static inline int turn_of(const Spec *sp, const Pos *p) { return (p->leader + p->ntrick) % sp->n; }

static u64 legal_pos(const Spec *sp, const Pos *p) { return legal_of(sp, p->hands[turn_of(sp, p)], p); }

static int winner_of(const Spec *sp, int leader, const int *cards, int k) {
    u64 mask = 0;
    for (int i = 0; i < k; i++) mask |= 1ULL << cards[i];
    u64 trumps = mask & sp->trump_mask;
    int top = top_bit(trumps ? trumps : (mask & SUIT[cards[0] / 13]));
    for (int i = 0; i < k; i++) if (cards[i] == top) return (leader + i) % sp->n;
    return leader;
}

static inline int is_over(const Spec *sp, const Pos *p) {
    if (p->ntrick) return 0;
    return !p->in_hands || (sp->stop && !(p->in_hands & sp->stop));
}

/* Play a card; returns the winner when it finishes the trick, else -1. */
static int play(const Spec *sp, Pos *p, int card) {
    int turn = turn_of(sp, p);
    u64 bit = 1ULL << card;
    p->hands[turn] ^= bit;
    p->in_hands ^= bit;
    p->trick[p->ntrick++] = card;
    p->trick_mask |= bit;
    if (p->ntrick < sp->n) return -1;
    int w = winner_of(sp, p->leader, p->trick, p->ntrick);
    p->won[w] |= p->trick_mask;
    p->tricks_won[w]++;
    if (p->nwin < MAXTRICKS) p->winners[p->nwin] = (unsigned char)w;
    p->nwin++;
    if (p->trick_mask & HEARTS_MASK) p->hb = 1;
    p->leader = w;
    p->ntrick = 0;
    p->trick_mask = 0;
    return w;
}

static inline long floordiv(long a, long b) {
    long q = a / b;
    if ((a % b) && ((a < 0) != (b < 0))) q--;
    return q;
}

static void score_pos(const Spec *sp, const Pos *p, long *out) {
    int n = sp->n;
    for (int s = 0; s < n; s++) {
        long pts = (long)sp->per_trick * p->tricks_won[s];
        u64 w = p->won[s] & (sp->pos_mask | sp->neg_mask);
        while (w) { pts += sp->values[__builtin_ctzll(w)]; w &= w - 1; }
        out[s] = pts;
    }
    int k = sp->nlast;
    if (k && p->nwin >= k && p->nwin <= MAXTRICKS) {
        for (int i = 0; i < k; i++) out[p->winners[p->nwin - k + i]] += sp->last[i];
    }
    if (sp->ravage) {
        int most[MAXP], top = 0, losers = 0;
        for (int s = 0; s < n; s++) {
            most[s] = 0;
            for (int x = 0; x < 4; x++) {
                int c = __builtin_popcountll(p->won[s] & SUIT[x]);
                if (c > most[s]) most[s] = c;
            }
            if (most[s] > top) top = most[s];
        }
        for (int s = 0; s < n; s++) losers += most[s] == top;
        long share = floordiv(sp->ravage, losers);
        for (int s = 0; s < n; s++) if (most[s] == top) out[s] -= share;
    }
}

static PyObject *scores_tuple(const long *pts, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int s = 0; s < n; s++) {
        PyObject *v = PyLong_FromLong(pts[s]);
        if (!v) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, s, v);
    }
    return t;
}

/* ------------------------------------------------------------ the rule player's card
 *
 * The twin of barbu.agents.cardplay.choose_trick_card, branch for branch and tie for tie, on a Spec whose
 * points are the seat's own (`objective(spec, sign)`: the sign folded in, so a penalty is a negative value)
 * and the contract's penalty mask `pm` (every card with points, whatever their sign).  `others` is the
 * cards the other seats still hold, `tricks_left` counts the trick in progress.  Where the Python compares
 * tuples, the loops below run over the cards lowest first and keep the first of equals, as max() and min()
 * do; the lead's risk is the same double arithmetic as the Python floats. */

static inline u64 below_card(int c) { return SUIT[c / 13] & ((1ULL << c) - 1); }
static inline u64 above_card(int c) { return SUIT[c / 13] & ~((2ULL << c) - 1); }
static inline int pen_of(const Spec *sp, int c) { return sp->values[c] < 0 ? -sp->values[c] : 0; }

/* The card of lowest rank (the lowest suit of equals) / of highest rank (the highest suit of equals). */
static int lowest_rank(u64 m) {
    int best = -1, best_rank = 99;
    for (; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        if (c % 13 < best_rank) { best = c; best_rank = c % 13; }
    }
    return best;
}

static int highest_rank(u64 m) {
    int best = -1, best_rank = -1;
    for (; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        if (c % 13 >= best_rank) { best = c; best_rank = c % 13; }
    }
    return best;
}

/* The card winning the trick so far. */
static int trick_top(const int *trick, int k, u64 trump_mask) {
    u64 m = 0;
    for (int i = 0; i < k; i++) m |= 1ULL << trick[i];
    u64 trumps = m & trump_mask;
    return top_bit(trumps ? trumps : (m & SUIT[trick[0] / 13]));
}

/* Positive trick contracts (`_take_tricks`): win what can be won cheaply, throw low otherwise. */
static int take_tricks(const Spec *sp, u64 hand, u64 legal, const int *trick, int k, u64 others) {
    u64 tm = sp->trump_mask;
    if (k) {
        int top = trick_top(trick, k, tm);
        u64 winners = legal & above_card(top);
        if (!(tm >> top & 1)) winners |= legal & tm;
        if (winners) {
            if (k == sp->n - 1) return lowest_rank(winners);
            for (int r = 0; r < 13; r++)  /* by rank, then by suit: a master card if there is one */
                for (int x = 0; x < 4; x++) {
                    int c = x * 13 + r;
                    if ((winners >> c & 1) && !(others & above_card(c))) return c;
                }
            return highest_rank(winners);
        }
        u64 side = legal & ~tm;
        return lowest_rank(side ? side : legal);
    }
    u64 masters = 0;
    for (u64 m = legal; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        if (!(others & above_card(c)) && (others & SUIT[c / 13])) masters |= 1ULL << c;
    }
    if (masters) {
        if (masters & tm) return __builtin_ctzll(masters & tm);
        int best = -1;
        for (u64 m = masters; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            if (best < 0 || c % 13 > best % 13) best = c;
        }
        return best;
    }
    u64 side = legal & ~tm;
    if (side) {  /* the lowest card of the shortest side suit */
        int best = -1, best_len = 0;
        for (u64 m = side; m; m &= m - 1) {
            int c = __builtin_ctzll(m), len = __builtin_popcountll(hand & SUIT[c / 13]);
            if (best < 0 || len < best_len || (len == best_len && c % 13 < best % 13)) { best = c; best_len = len; }
        }
        return best;
    }
    return lowest_rank(legal);
}

/* `_cash`: a master card to lead while everybody still follows its suit, or -1. */
static int cash_lead(const Spec *sp, u64 legal, u64 pm, u64 others) {
    int best = -1, best_left = 0;
    for (u64 m = legal & ~pm; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        u64 in_suit = others & SUIT[c / 13];
        int left = __builtin_popcountll(in_suit);
        if ((in_suit & above_card(c)) || (in_suit & pm) || left < 3 * (sp->n - 1)) continue;
        if (left > best_left) { best = c; best_left = left; }
    }
    return best;
}

/* `_cash_on`: a master card to win a clean trick with, or -1. */
static int cash_on(u64 trick_mask, u64 follow, u64 pm, u64 others_in_suit, int to_play) {
    if ((trick_mask & pm) || (others_in_suit & pm)) return -1;
    if (to_play && __builtin_popcountll(others_in_suit) < 3 * to_play) return -1;
    int best = -1;
    for (u64 m = follow & ~pm; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        if (!(others_in_suit & above_card(c))) best = c;
    }
    return best;
}

/* `_discard`: void, so throw the most dangerous card (a penalty card first). */
static int discard(const Spec *sp, u64 legal, u64 pm, u64 hand, u64 others) {
    int best = -1, k1 = 0, k2 = 0;
    u64 bad = legal & pm;
    if (bad) {
        for (u64 m = bad; m; m &= m - 1) {
            int c = __builtin_ctzll(m), p = pen_of(sp, c), r = c % 13;
            if (best < 0 || p > k1 || (p == k1 && r > k2)) { best = c; k1 = p; k2 = r; }
        }
        return best;
    }
    for (u64 m = legal; m; m &= m - 1) {
        int c = __builtin_ctzll(m), r = c % 13;
        int d = __builtin_popcountll(others & below_card(c)) - __builtin_popcountll(hand & SUIT[c / 13]);
        if (best < 0 || d > k1 || (d == k1 && r > k2)) { best = c; k1 = d; k2 = r; }
    }
    return best;
}

/* `_lead`: the card least likely to win its trick, and not a penalty card. */
static int lead_card(const Spec *sp, u64 legal, u64 pm, u64 others) {
    int best = -1, best_rank = 0;
    double best_risk = 0.0;
    for (u64 m = legal; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        u64 in_suit = others & SUIT[c / 13];
        double risk;
        if (!in_suit) risk = 100.0;  /* nobody can follow: it wins for sure */
        else {
            int lower = __builtin_popcountll(in_suit & below_card(c)), higher = __builtin_popcountll(in_suit & above_card(c));
            risk = (double)lower / (higher + 1.0);
            if (!higher) risk += 10.0;
            risk += (double)__builtin_popcountll(in_suit & pm) * 0.5 * (double)(lower > 0);
        }
        double key = risk + (double)pen_of(sp, c) * 2.0;
        if (best < 0 || key < best_risk || (key == best_risk && c % 13 < best_rank)) {
            best = c; best_risk = key; best_rank = c % 13;
        }
    }
    return best;
}

/* Negative contracts (`_avoid_tricks`). */
static int avoid_tricks(const Spec *sp, u64 pm, u64 hand, u64 legal, const int *trick, int k, u64 others,
                        int tricks_left) {
    int per = sp->per_trick < 0 ? -sp->per_trick : 0, last = 0;
    if (sp->nlast && tricks_left <= sp->nlast) {
        int v = sp->last[sp->nlast - tricks_left];
        last = v < 0 ? -v : 0;
    }
    int trick_cost = per + last;
    if (!per && !last && !pm) return highest_rank(legal);  /* this trick costs nothing: shed high cards */
    if (!k && !trick_cost) {
        int c = cash_lead(sp, legal, pm, others);
        if (c >= 0) return c;
    }
    if (!k) return lead_card(sp, legal, pm, others);
    u64 led = SUIT[trick[0] / 13], trick_mask = 0;
    for (int i = 0; i < k; i++) trick_mask |= 1ULL << trick[i];
    int top = trick_top(trick, k, sp->trump_mask);
    int trumped = top / 13 != trick[0] / 13;
    u64 follow = legal & led;
    if (!follow) return discard(sp, legal, pm, hand, others);
    if (!trick_cost && !trumped) {
        int c = cash_on(trick_mask, follow, pm, others & led, sp->n - 1 - k);
        if (c >= 0) return c;
    }
    u64 under = trumped ? follow : follow & below_card(top);
    u64 safe = follow & ~pm;
    int best = -1, best_pen = 0;
    if (under) {  /* the highest card that stays under the winner, a penalty card first */
        u64 bad = under & pm;
        if (!bad) return top_bit(under);
        for (u64 m = bad; m; m &= m - 1) {
            int c = __builtin_ctzll(m), p = pen_of(sp, c);
            if (best < 0 || p >= best_pen) { best = c; best_pen = p; }
        }
        return best;
    }
    if (k == sp->n - 1) {  /* every card wins and nobody comes after: the highest safe card, else the cheapest */
        if (safe) return top_bit(safe);
        for (u64 m = follow; m; m &= m - 1) {
            int c = __builtin_ctzll(m), p = pen_of(sp, c);
            if (best < 0 || p <= best_pen) { best = c; best_pen = p; }
        }
        return best;
    }
    return __builtin_ctzll(safe ? safe : follow);
}

/* The rule player's card, from a non-empty `legal`. */
static int rule_card(const Spec *sp, u64 pm, u64 hand, u64 legal, const int *trick, int k, u64 others,
                     int tricks_left) {
    if (!(legal & (legal - 1))) return top_bit(legal);
    if (sp->per_trick > 0) return take_tricks(sp, hand, legal, trick, k, others);
    return avoid_tricks(sp, pm, hand, legal, trick, k, others, tricks_left);
}

/* ------------------------------------------------------------ batches */

static PyObject *py_legal_moves(PyObject *self, PyObject *args) {
    PyObject *spec_o, *states;
    if (!PyArg_ParseTuple(args, "OO", &spec_o, &states)) return NULL;
    Spec sp;
    if (read_spec(spec_o, &sp) < 0) return NULL;
    PyObject *seq = PySequence_Fast(states, "states must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(k);
    if (!out) { Py_DECREF(seq); return NULL; }
    for (Py_ssize_t i = 0; i < k; i++) {
        Pos p;
        if (read_state(PySequence_Fast_GET_ITEM(seq, i), &sp, &p) < 0) { Py_DECREF(seq); Py_DECREF(out); return NULL; }
        PyObject *v = PyLong_FromUnsignedLongLong(legal_pos(&sp, &p));
        if (!v) { Py_DECREF(seq); Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, v);
    }
    Py_DECREF(seq);
    return out;
}

static PyObject *py_trick_winners(PyObject *self, PyObject *args) {
    PyObject *spec_o, *tricks;
    if (!PyArg_ParseTuple(args, "OO", &spec_o, &tricks)) return NULL;
    Spec sp;
    if (read_spec(spec_o, &sp) < 0) return NULL;
    PyObject *seq = PySequence_Fast(tricks, "tricks must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(k);
    if (!out) { Py_DECREF(seq); return NULL; }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
        long leader, v[MAXP];
        int cards[MAXP];
        Py_ssize_t m;
        if (!item(t, 0, 2, "a trick") || get_long(PyTuple_GET_ITEM(t, 0), &leader) < 0
            || (m = get_ints(PyTuple_GET_ITEM(t, 1), v, sp.n, sp.n, "trick cards")) < 0) goto fail;
        if (leader < 0 || leader >= sp.n) { PyErr_SetString(PyExc_ValueError, "trick: the leader is not a seat"); goto fail; }
        for (int j = 0; j < m; j++) {
            if (v[j] < 0 || v[j] > 51) { PyErr_SetString(PyExc_ValueError, "trick: a card is not 0..51"); goto fail; }
            cards[j] = (int)v[j];
        }
        PyObject *w = PyLong_FromLong(winner_of(&sp, (int)leader, cards, (int)m));
        if (!w) goto fail;
        PyList_SET_ITEM(out, i, w);
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

static PyObject *py_deal_scores(PyObject *self, PyObject *args) {
    PyObject *spec_o, *outcomes;
    if (!PyArg_ParseTuple(args, "OO", &spec_o, &outcomes)) return NULL;
    Spec sp;
    if (read_spec(spec_o, &sp) < 0) return NULL;
    PyObject *seq = PySequence_Fast(outcomes, "outcomes must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(k);
    if (!out) { Py_DECREF(seq); return NULL; }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
        Pos p;
        long v[MAXTRICKS], pts[MAXP];
        memset(&p, 0, sizeof p);
        if (!item(t, 0, 3, "an outcome") || get_masks(PyTuple_GET_ITEM(t, 0), p.won, sp.n, "outcome won") < 0
            || get_ints(PyTuple_GET_ITEM(t, 1), v, sp.n, sp.n, "outcome tricks_won") < 0) goto fail;
        for (int s = 0; s < sp.n; s++) p.tricks_won[s] = (int)v[s];
        Py_ssize_t m = get_ints(PyTuple_GET_ITEM(t, 2), v, -1, MAXTRICKS, "outcome winners");
        if (m < 0) goto fail;
        for (int j = 0; j < m; j++) {
            if (v[j] < 0 || v[j] >= sp.n) { PyErr_SetString(PyExc_ValueError, "outcome: a winner is not a seat"); goto fail; }
            p.winners[j] = (unsigned char)v[j];
        }
        p.nwin = (int)m;
        score_pos(&sp, &p, pts);
        PyObject *r = scores_tuple(pts, sp.n);
        if (!r) goto fail;
        PyList_SET_ITEM(out, i, r);
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

static inline u64 splitmix64(u64 *x) {
    u64 z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int nth_card(u64 m, int i) {
    while (i--) m &= m - 1;
    return __builtin_ctzll(m);
}

static PyObject *py_playouts(PyObject *self, PyObject *args) {
    PyObject *spec_o, *states;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOK", &spec_o, &states, &seed)) return NULL;
    Spec sp;
    if (read_spec(spec_o, &sp) < 0) return NULL;
    PyObject *seq = PySequence_Fast(states, "states must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(k);
    if (!out) { Py_DECREF(seq); return NULL; }
    for (Py_ssize_t i = 0; i < k; i++) {
        Pos p;
        long pts[MAXP];
        if (read_state(PySequence_Fast_GET_ITEM(seq, i), &sp, &p) < 0) goto fail;
        u64 rng = (u64)seed ^ ((u64)(i + 1) * 0xD1B54A32D192ED03ULL);
        while (!is_over(&sp, &p)) {
            u64 legal = legal_pos(&sp, &p);
            if (!legal) { PyErr_SetString(PyExc_ValueError, "state: the seat to play holds no card"); goto fail; }
            u64 r = splitmix64(&rng);
            play(&sp, &p, nth_card(legal, (int)(r % (u64)__builtin_popcountll(legal))));
        }
        score_pos(&sp, &p, pts);
        PyObject *r = scores_tuple(pts, sp.n);
        if (!r) goto fail;
        PyList_SET_ITEM(out, i, r);
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

/* ------------------------------------------------------------ the exact solver */

#define TT_BYTES (24u << 20)
#define KEYLEN (2 * MAXP + 1 + NCLASSES)

/* The transposition table: one flat block of entries as long as the deal's key needs (so more of them fit
 * in the cache), each a header word (generation, best move), the bounds (the least and the most the seat's
 * future points can be, as far as the searches of the position have shown), then the key.  Both bounds are
 * kept: MTD(f)'s passes meet a position with one window after another. */
static u64 *tt;
static unsigned tt_gen;
static unsigned tt_mask;  /* entries - 1, a power of two minus one, set for each search's key length */
#define HEAD(e) ((e)[0])
#define LOWER_OF(e) ((int)(int32_t)(uint32_t)(e)[1])
#define UPPER_OF(e) ((int)(int32_t)(uint32_t)((e)[1] >> 32))
#define BOUNDS(lo, hi) ((u64)(uint32_t)(int32_t)(lo) | (u64)(uint32_t)(int32_t)(hi) << 32)

typedef struct {
    const Spec *sp;
    int seat, first_last, keylen, stride;
    int penalties;  /* every point a penalty: order the cards by the rule player's sense first */
    int gains;  /* every point a gain: order the cards to win tricks for the seat and against it */
    long nodes;
    long budget;  /* stop once this many positions are searched (0: never): `solve_seat` */
    int aborted;  /* the budget ran out: every search returns at once, nothing more is stored */
    int history[MAXP][52];  /* cut-offs each seat's cards caused: tried first next time */
    int relaxed;  /* searching the relaxed game (`relaxed_key`): the others hold their cards in common */
    int relax_root;  /* with a budget: a floor from the relaxed game where the real search does not finish */
} Ctx;

static long last_nodes;  /* nodes searched by the last solve call (for the benchmark) */

/* A hand with the cards no longer in play squeezed out: ranks relative to the cards left (each suit in
 * its 13 bits).  With BMI2 (checked at run time) one PEXT a suit does it. */
static u64 relative_plain(u64 h, u64 rest) {
    u64 out = 0;
    for (int x = 0; x < 4; x++) {
        unsigned r = (unsigned)(rest >> (13 * x)) & 0x1FFF, hx = (unsigned)(h >> (13 * x)) & 0x1FFF, o = 0;
        for (int i = 0; r; i++) {
            unsigned low = r & -r;
            if (hx & low) o |= 1u << i;
            r ^= low;
        }
        out |= (u64)o << (13 * x);
    }
    return out;
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
__attribute__((target("bmi2"))) static u64 relative_pext(u64 h, u64 rest) {
    u64 out = 0;
    for (int x = 0; x < 4; x++) out |= _pext_u64(h, rest & SUIT[x]) << (13 * x);
    return out;
}
static int use_pext = -1;
static u64 relative(u64 h, u64 rest) {
    if (use_pext < 0) { __builtin_cpu_init(); use_pext = __builtin_cpu_supports("bmi2") ? 1 : 0; }
    return use_pext ? relative_pext(h, rest) : relative_plain(h, rest);
}
#else
#define relative relative_plain
#endif

/* The key of a position between tricks.  With few kinds of card points it is relative: two positions
 * that differ only in which cards are gone transpose, as long as the points sit on the same places.
 * Whether hearts are broken counts only where it rules the leads. */
static int make_key(const Ctx *cx, const Pos *p, u64 *key) {
    const Spec *sp = cx->sp;
    int n = sp->n, k = 0;
    if (sp->nclasses >= 0) {
        u64 rest = p->in_hands;
        for (int s = 0; s < n; s++) key[k++] = relative(p->hands[s], rest);
        for (int c = 0; c < sp->nclasses; c++) key[k++] = relative(sp->classes[c] & rest, rest);
    } else {
        for (int s = 0; s < n; s++) key[k++] = p->hands[s];
    }
    key[k++] = (u64)p->leader | ((u64)(p->hb && sp->heart_mode == 3) << 8) | ((u64)cx->seat << 16);
    if (sp->ravage) for (int s = 0; s < n; s++) key[k++] = p->won[s];
    return k;
}

static unsigned hash_key(const u64 *key, int len) {
    u64 h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < len; i++) {
        h ^= key[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
    }
    h ^= h >> 31;
    return (unsigned)(h & tt_mask);
}

/* The key's length for this deal, and so the table's stride and number of entries. */
static void set_key_length(Ctx *cx) {
    const Spec *sp = cx->sp;
    int n = sp->n;
    cx->keylen = n + (sp->nclasses >= 0 ? sp->nclasses : 0) + 1 + (sp->ravage ? n : 0);
    cx->stride = cx->keylen + 2 <= 8 ? 8 : cx->keylen + 2;  /* up to a cache line, a whole one */
    int neg = !sp->pos_mask && sp->per_trick <= 0 && !sp->ravage;
    for (int i = 0; i < sp->nlast; i++) neg &= sp->last[i] <= 0;
    cx->penalties = neg;
    int pos = !sp->neg_mask && sp->per_trick >= 0 && !sp->ravage;
    for (int i = 0; i < sp->nlast; i++) pos &= sp->last[i] >= 0;
    cx->gains = pos && !neg;
    cx->relax_root = neg && sp->trump < 0 && n >= 3 && sp->nclasses >= 0;  /* where the relaxed game is defined */
    unsigned entries = 1;
    while ((size_t)entries * 2 * cx->stride * sizeof(u64) <= TT_BYTES) entries *= 2;
    tt_mask = entries - 1;
}

/* A fresh generation: every entry of the table is stale at once. */
static void new_generation(void) {
    if (++tt_gen == 0) { memset(tt, 0, TT_BYTES); tt_gen = 1; }
}

/* The table outlives a call: an entry is a fact about one seat's future points from one position (the key
 * holds the seat), true for every position of every deal under the same rules with as many tricks in all.
 * So successive solves of one deal (the oracle's cards, a batch) reuse each other's work; other rules or
 * another deal size start a fresh generation. */
static Spec tt_spec;
static int tt_total = -1;

static void use_table_for(const Spec *sp, int total) {
    if (total != tt_total || memcmp(sp, &tt_spec, sizeof *sp)) {
        new_generation();
        tt_spec = *sp;
        tt_total = total;
    }
}

static int trick_points(const Ctx *cx, const Pos *before, int card, int winner) {
    if (winner != cx->seat) return 0;
    const Spec *sp = cx->sp;
    int pts = sp->per_trick;
    u64 m = (before->trick_mask | (1ULL << card)) & (sp->pos_mask | sp->neg_mask);
    while (m) { pts += sp->values[__builtin_ctzll(m)]; m &= m - 1; }
    int t = before->nwin;
    if (sp->nlast && t >= cx->first_last) pts += sp->last[t - cx->first_last];
    return pts;
}

static void bounds(const Ctx *cx, const Pos *p, int *lo, int *hi) {
    const Spec *sp = cx->sp;
    u64 rest = p->in_hands | p->trick_mask;
    int tricks = __builtin_popcountll(rest) / sp->n;
    int t = tricks * sp->per_trick;
    int l = t < 0 ? t : 0, h = t > 0 ? t : 0;
    if (sp->nclasses >= 0) {
        for (int c = 0; c < sp->nclasses; c++) {
            int v = sp->class_value[c] * __builtin_popcountll(rest & sp->classes[c]);
            if (v > 0) h += v; else l += v;
        }
    } else {
        u64 m = rest & sp->pos_mask;
        while (m) { h += sp->values[__builtin_ctzll(m)]; m &= m - 1; }
        m = rest & sp->neg_mask;
        while (m) { l += sp->values[__builtin_ctzll(m)]; m &= m - 1; }
    }
    for (int i = 0; i < sp->nlast; i++) {
        if (cx->first_last + i >= p->nwin) {
            int v = sp->last[i];
            if (v < 0) l += v; else h += v;
        }
    }
    if (sp->ravage > 0) l -= sp->ravage;
    else if (sp->ravage < 0) h -= sp->ravage;
    *lo = l;
    *hi = h;
}

/* The cards worth trying: of a run of equivalent cards (same suit, same points, no other
 * player's card in a hand or on the table between them) only the lowest. */
static int distinct_moves(const Spec *sp, u64 legal, u64 hand, u64 in_play, int *moves) {
    u64 others = in_play & ~hand;
    int k = 0, prev = -1;
    while (legal) {
        int c = __builtin_ctzll(legal);
        legal &= legal - 1;
        if (prev >= 0 && prev / 13 == c / 13 && sp->values[prev] == sp->values[c]
            && !(others & ((1ULL << c) - (1ULL << (prev + 1))))) {
            prev = c;
            continue;
        }
        moves[k++] = c;
        prev = c;
    }
    return k;
}

/* A card as (suit, place among the cards of its suit still in play), so a stored best move survives
 * a transposition, and back. */
static unsigned char to_relative(int card, u64 rest) {
    int x = card / 13;
    u64 below = rest & SUIT[x] & ((1ULL << card) - 1);
    return (unsigned char)(x * 16 + __builtin_popcountll(below));
}

static int from_relative(unsigned char rel, u64 rest) {
    int x = rel / 16, i = rel % 16;
    u64 m = rest & SUIT[x];
    if (i >= __builtin_popcountll(m)) return -1;
    return nth_card(m, i);
}

/* No trump in `mine` (where there are trumps), and each of its cards below every card of its suit in `others`. */
static int below_all(const Spec *sp, u64 mine, u64 others) {
    if (mine & sp->trump_mask) return 0;
    for (int x = 0; x < 4; x++) {
        u64 m = mine & SUIT[x], o = others & SUIT[x];
        if (m && o && top_bit(m) > __builtin_ctzll(o)) return 0;
    }
    return 1;
}

/* Without trumps: can the seat duck every lead another hand makes, for good?  In each suit the others hold,
 * either all its cards are below every other hand's card of the suit, or it holds at least as many cards
 * below them as the others hold of the suit.  Then, while another hand leads, it follows with a card below
 * them (each lead of the suit takes at least one of the others' cards, and their lowest only rises) and,
 * void, throws a card above them if it has one, else any card; so it never wins and never leads. */
static int ducks_all(u64 mine, u64 others) {
    for (int x = 0; x < 4; x++) {
        u64 m = mine & SUIT[x], o = others & SUIT[x];
        if (!m || !o) continue;
        u64 low = m & ((o & -o) - 1);
        if (low == m) continue;
        while (low && o) { low &= low - 1; o &= o - 1; }  /* fewer cards under theirs than they hold? */
        if (o) return 0;
    }
    return 1;
}

/* At a trick's start, the seat's exact future points when the play can no longer change who takes what;
 * returns 1 with *v set, else 0.  (Not for Ravage City, whose score is not a sum over tricks.)
 * - It takes no more tricks when another seat leads, it holds no trump (where there are trumps) and each of
 *   its cards is below every other hand's card of that suit: whoever leads a suit it holds leads over it,
 *   a suit it lacks it discards to, so it never wins and never leads again.  Where every point is a
 *   penalty the same holds when it leads, if it may lead a suit another hand holds.
 * - It takes every trick when it leads, no one else holds a trump and each of its cards is above every other
 *   hand's card of that suit: whatever it leads wins.  With a stop card the tricks are counted only when
 *   all the points lie on stop cards (every scoring card is then played before the deal stops). */
static int settled(const Ctx *cx, const Pos *p, int *v) {
    const Spec *sp = cx->sp;
    u64 mine = p->hands[cx->seat], others = p->in_hands & ~mine;
    /* Where every point is a penalty and there are no trumps, ducking for good is the best the seat can do. */
    int ducks = cx->penalties && sp->trump < 0 && ducks_all(mine, others);
    if (p->leader != cx->seat) {
        if (!ducks && !below_all(sp, mine, others)) return 0;
        *v = 0;
        return 1;
    }
    if (ducks || (cx->penalties && below_all(sp, mine, others))) {
        /* Where every point is a penalty, nothing is the best it can do: a lead under another hand's card
         * of its suit loses the trick, and then it never wins again. */
        u64 leads = legal_of(sp, mine, p);
        for (int x = 0; x < 4; x++)
            if ((leads & SUIT[x]) && (others & SUIT[x])) { *v = 0; return 1; }
    }
    if (others & sp->trump_mask) return 0;
    u64 scoring = sp->pos_mask | sp->neg_mask;
    if (sp->stop && (sp->per_trick || sp->nlast || (scoring & ~sp->stop))) return 0;
    for (int x = 0; x < 4; x++) {
        u64 m = mine & SUIT[x], o = others & SUIT[x];
        if (m && o && __builtin_ctzll(m) < top_bit(o)) return 0;
    }
    int tricks = __builtin_popcountll(p->in_hands) / sp->n, pts = tricks * sp->per_trick;
    u64 m = p->in_hands & scoring;
    while (m) { pts += sp->values[__builtin_ctzll(m)]; m &= m - 1; }
    for (int i = 0; i < sp->nlast; i++)
        if (cx->first_last + i >= p->nwin) pts += sp->last[i];
    *v = pts;
    return 1;
}

/* Does `card` beat `best`, the trick's winning card so far?  Off the winner's suit only a trump does. */
static inline int beats(const Spec *sp, int card, int best) {
    int cs = card / 13, bs = best / 13;
    if (cs == bs) return card > best;
    return cs == sp->trump && bs != sp->trump;
}

/* Without trumps, how many tricks the others could make a seat win as it follows one suit (its cards `m`, theirs
 * `o`), at most: its cards above the others' lowest, but no more than the others' cards beyond its cards
 * under them.  While the others hold the suit, each trick of it takes at least one of their cards (the
 * leader's, or a follower's when the seat leads), so there are at most `o` such tricks; a card of the seat
 * under their lowest stays under it (their lowest only rises) and loses; so, ducking under the winner when it
 * can and throwing its higher cards first when void, the seat can be made to win only once its low cards are
 * spent, each in a trick of the suit, and each such win spends one of its higher cards.  Summed over the
 * suits, its danger: 0 is `ducks_all`.  A measure for ordering its cards, not a bound: after it wins, its
 * own leads are left out (the others may have drained the suit of a lead that would surely lose). */
static inline int danger_in_suit(u64 m, u64 o) {
    if (!m || !o) return 0;
    u64 low = m & ((o & -o) - 1);
    int L = __builtin_popcountll(low), h = __builtin_popcountll(m) - L, k = __builtin_popcountll(o) - L;
    if (k < 0) k = 0;
    return h < k ? h : k;
}

/* How promising a card looks where every point is a gain (most promising highest): the searched seat leads
 * high, wins the trick when it can with its lowest winning card, else throws its lowest; the others lead low,
 * beat the seat's card with their lowest winning card while it wins the trick, and otherwise play low, under
 * the trick's winner if they can.  (Trumps and the Italian game's tricks, 8 cards each: 1.3 to 9 times fewer
 * positions than the cut-off history alone.) */
static int gain_order(const Ctx *cx, const Pos *p, int turn, int card) {
    const Spec *sp = cx->sp;
    int rank = card % 13;
    if (!p->ntrick) return turn == cx->seat ? 20 + rank : 20 - rank;
    int best = p->trick[0], bi = 0;
    for (int i = 1; i < p->ntrick; i++) if (beats(sp, p->trick[i], best)) { best = p->trick[i]; bi = i; }
    int wins = beats(sp, card, best);
    int seat_wins = (p->leader + bi) % sp->n == cx->seat;
    if (turn == cx->seat) return wins ? 200 - rank : 100 - rank;
    if (seat_wins) return wins ? 200 - rank : 100 - rank;
    return wins ? 50 - rank : 100 - rank;
}

/* How promising the searched seat's card looks where every point is a penalty (most promising highest): a card
 * that loses the trick (under the card winning it, or void; a lead that another hand must follow above,
 * holding only higher cards of its suit), its worst penalty first; then one that wins, highest first; a lead
 * that might win last, lowest first.  Among alike, the card that leaves it the least danger (`danger`: the
 * seat's by suit, then in all).  What makes a proof short is a line where the seat soon cannot be made to
 * win again; the rule player's own order (duck high, dump penalties) gave an eighth more positions. */
static int seat_order(const Ctx *cx, const Pos *p, int card, const int *danger) {
    const Spec *sp = cx->sp;
    int rank = card % 13, pen = -sp->values[card], x = card / 13;
    if (pen > 40) pen = 40;
    u64 mine = p->hands[cx->seat], others = p->in_hands & ~mine;
    int f = danger[4] - danger[x] + danger_in_suit(mine & SUIT[x] & ~(1ULL << card), others & SUIT[x]);
    if (f > 15) f = 15;
    int loses;
    if (!p->ntrick) {
        loses = 0;
        u64 suit = SUIT[card / 13];
        for (int s = 0; s < sp->n && !loses; s++) {
            if (s == cx->seat) continue;
            u64 h = p->hands[s] & suit;
            loses = h && !(h & ((2ULL << card) - 1));
        }
        if (!loses) return (15 - f) * 13 + 12 - rank;
    } else {
        int best = p->trick[0];
        for (int i = 1; i < p->ntrick; i++) if (beats(sp, p->trick[i], best)) best = p->trick[i];
        loses = !beats(sp, card, best);
    }
    if (!loses) return 300 + (15 - f) * 13 + rank;
    return 600 + pen * 300 + (15 - f) * 13 + rank;
}

/* How promising another seat's card looks in a contract where every point is a penalty, before the cut-off
 * history (0..511, most promising highest), the rule player's sense: while the searched seat wins the trick,
 * they pile their penalties on it and stay under it; before it plays they stay under the trick's winner with
 * their highest card, and once it has lost the trick they keep their penalties and play high.  They lead high. */
static int order_class(const Ctx *cx, const Pos *p, int turn, int card) {
    const Spec *sp = cx->sp;
    int rank = card % 13, pen = -sp->values[card];
    if (!p->ntrick) return 20 + rank;
    int best = p->trick[0], bi = 0;
    for (int i = 1; i < p->ntrick; i++) if (beats(sp, p->trick[i], best)) { best = p->trick[i]; bi = i; }
    int winner = (p->leader + bi) % sp->n;
    int wins = beats(sp, card, best);
    int seat_played = ((cx->seat - p->leader + sp->n) % sp->n) < p->ntrick;
    if (seat_played && winner == cx->seat) {
        if (!wins) return 300 + (pen > 40 ? 40 : pen) * 4 + rank;
        return 100 + rank;
    }
    if (!seat_played) {
        if (!wins && !pen) return 200 + rank;
        return 100 - rank - (pen > 40 ? 40 : pen);
    }
    return 200 + rank - (pen > 40 ? 40 : pen);
}

/* In the middle of a trick, where every point is a penalty and there are no trumps: the seat has played
 * to it and lost it, and can duck every lead after it for good (`ducks_all`, or each of its cards under
 * every other hand's card of its suit): the others' cards still to come can only make that easier, so
 * the seat takes nothing more, the best it can do; the rest of the trick need not be played. */
static int lost_for_good(const Ctx *cx, const Pos *p) {
    const Spec *sp = cx->sp;
    if (!cx->penalties || sp->trump >= 0) return 0;
    int n = sp->n, seat = cx->seat;
    if ((seat - p->leader + n) % n >= p->ntrick) return 0;
    int best = p->trick[0], bi = 0;
    for (int i = 1; i < p->ntrick; i++) if (beats(sp, p->trick[i], best)) { best = p->trick[i]; bi = i; }
    if ((p->leader + bi) % n == seat) return 0;
    u64 mine = p->hands[seat], others = p->in_hands & ~mine;
    return ducks_all(mine, others) || below_all(sp, mine, others);
}

/* `ducks_all` in one suit: the seat's cards `m` and the others' `o` of that suit. */
static inline int ducks_suit(u64 m, u64 o) {
    if (!m || !o) return 1;
    u64 low = m & ((o & -o) - 1);
    return low == m || __builtin_popcountll(low) >= __builtin_popcountll(o);
}

/* Is there a card in `cands` after which the seat ducks for good (`ducks_all` of the rest of its hand)? */
static int ducks_after_one_of(u64 mine, u64 others, u64 cands) {
    /* Only the card's own suit changes: every other suit must hold already. */
    int bad = 0;
    for (int x = 0; x < 4; x++)
        if (!ducks_suit(mine & SUIT[x], others & SUIT[x])) {
            if (bad) return 0;
            bad = 1 << x;
        }
    if (bad) cands &= SUIT[__builtin_ctz(bad)];
    for (; cands; cands &= cands - 1) {
        int c = __builtin_ctzll(cands), x = c / 13;
        if (ducks_suit(mine & SUIT[x] & ~(1ULL << c), others & SUIT[x])) return 1;
    }
    return 0;
}

/* Where every point is a penalty and there are no trumps: before the seat plays to the trick (or at its
 * start), can it lose this trick whatever the others play, with a card after which it ducks for good?  Then
 * it takes nothing more, the best it can do.  A card loses for sure when it is under a card already winning
 * the trick, or, before the suit is known, under every card of the suit the leader could lead; the seat
 * leads a card that loses for sure when another hand holds cards of its suit and all of them are higher.
 * When another hand leads, every suit it may lead must leave the seat such a card (void, any card it throws).
 * The others' cards played meanwhile only make ducking easier. */
static int ducks_after_trick(const Ctx *cx, const Pos *p) {
    const Spec *sp = cx->sp;
    int n = sp->n, seat = cx->seat;
    if ((seat - p->leader + n) % n < p->ntrick) return 0;  /* it has played to this trick */
    u64 mine = p->hands[seat], others = p->in_hands & ~mine;
    if (p->ntrick) {
        int top = p->trick[0];
        for (int i = 1; i < p->ntrick; i++) if (beats(sp, p->trick[i], top)) top = p->trick[i];
        u64 m = mine & SUIT[p->trick[0] / 13];
        return ducks_after_one_of(mine, others, m ? m & below_card(top) : mine);
    }
    if (p->leader == seat) {
        u64 sure = 0;
        for (u64 l = legal_of(sp, mine, p); l; l &= l - 1) {
            int c = __builtin_ctzll(l);
            for (int s = 0; s < n; s++) {
                u64 h = p->hands[s] & SUIT[c / 13];
                if (s != seat && h && !(h & below_card(c))) { sure |= 1ULL << c; break; }
            }
        }
        return sure && ducks_after_one_of(mine, others, sure);
    }
    u64 leads = legal_of(sp, p->hands[p->leader], p);
    for (int x = 0; x < 4; x++) {
        u64 l = leads & SUIT[x];
        if (!l) continue;
        u64 m = mine & SUIT[x];
        if (!ducks_after_one_of(mine, others, m ? m & ((l & -l) - 1) : mine)) return 0;
    }
    return 1;
}

#ifdef BARBU_COUNT
static int counted_search(Ctx *cx, const Pos *p, int alpha, int beta);
#define SEARCH counted_search
#else
#define SEARCH search
#endif

/* The relaxed game (Kupferschmid and Helmert's lower bounds for open-hand Skat, made for the paranoid search):
 * the others hold their cards in common and keep only their suit lengths, so each of them, at its turn, plays
 * any of their cards of a suit its own hand may play.  Every play of the real game is one of the relaxed game,
 * so the others are at least as strong there and the seat's value there is a floor of its real one; where
 * every point is a penalty and there are no trumps the floor is usually the value itself (see docs/solver.md,
 * "The sixth pass").  A position of the relaxed game is its key: the seat's cards against the others' together,
 * each other hand's suit lengths, the point cards, the leader, the seat (and a mark, so that it never meets a
 * real key).  The others' cards are kept in their hands (any split with the right lengths stands for all):
 * a card played from another hand is first swapped with a card of its suit of the hand that plays it. */
static int relaxed_key(const Ctx *cx, const Pos *p, u64 *key) {
    const Spec *sp = cx->sp;
    int k = 0;
    u64 rest = p->in_hands, lengths[2] = {0, 0};
    key[k++] = relative(p->hands[cx->seat], rest);
    for (int s = 0, j = 0; s < sp->n; s++) {
        if (s == cx->seat) continue;
        u64 l = 0;
        for (int x = 0; x < 4; x++) l |= (u64)__builtin_popcountll(p->hands[s] & SUIT[x]) << (4 * x);
        lengths[j / 4] |= l << (16 * (j % 4));
        j++;
    }
    key[k++] = lengths[0];
    key[k++] = lengths[1];
    for (int c = 0; c < sp->nclasses; c++) key[k++] = relative(sp->classes[c] & rest, rest);
    key[k++] = (u64)p->leader | ((u64)(p->hb && sp->heart_mode == 3) << 8) | ((u64)cx->seat << 16);
    while (k < cx->keylen) key[k++] = 0;
    key[k - 1] |= 1ULL << 40;  /* the mark: a real key's last word is the leader's, never so high */
    return k;
}

/* Before `turn` plays `card`, another of the others' hands holds it: swap it with `turn`'s lowest card of its suit. */
static void take_from_pool(const Spec *sp, Pos *p, int turn, int card) {
    u64 bit = 1ULL << card, mine = p->hands[turn] & SUIT[card / 13];
    u64 give = mine & -mine;
    for (int s = 0; s < sp->n; s++)
        if (p->hands[s] & bit) { p->hands[s] ^= bit | give; break; }
    p->hands[turn] ^= bit | give;
}

/* The others' cards worth trying in the relaxed game: of a run of their cards in common (same suit, same points,
 * no card of the seat or on the table between them) the lowest and the highest.  Not the lowest alone, as one
 * hand's runs: two of the others may play from one run to a trick, and which of them wins it decides who leads
 * next; the two ends let any of them be the one. */
static int band_ends(const Spec *sp, u64 cands, u64 pool, u64 in_play, int *moves) {
    u64 others = in_play & ~pool;
    int k = 0, prev = -1, first = -1;
    while (cands) {
        int c = __builtin_ctzll(cands);
        cands &= cands - 1;
        if (prev >= 0 && prev / 13 == c / 13 && sp->values[prev] == sp->values[c]
            && !(others & ((1ULL << c) - (1ULL << (prev + 1))))) {
            if (prev != first) k--;  /* keep the run's first card, and its last so far */
        } else first = c;
        moves[k++] = c;
        prev = c;
    }
    return k;
}

static int search(Ctx *cx, const Pos *p, int alpha, int beta) {
    const Spec *sp = cx->sp;
    if (cx->budget && cx->nodes >= cx->budget) { cx->aborted = 1; return 0; }
    cx->nodes++;
    if (is_over(sp, p)) {
        if (!sp->ravage) return 0;
        long pts[MAXP];
        score_pos(sp, p, pts);
        return (int)pts[cx->seat];
    }
    if (!p->ntrick && __builtin_popcountll(p->in_hands) == sp->n && !cx->relaxed) {
        /* The last trick plays itself: one card each. */
        Pos last = *p;
        int gain = 0;
        for (int i = 0; i < sp->n; i++) {
            Pos before = last;
            int card = __builtin_ctzll(last.hands[turn_of(sp, &last)]);
            int w = play(sp, &last, card);
            if (w >= 0) gain = trick_points(cx, &before, card, w);
        }
        if (!sp->ravage) return gain;
        long pts[MAXP];
        score_pos(sp, &last, pts);
        return gain + (int)pts[cx->seat];
    }
    int lo, hi;
    if (!p->ntrick && !sp->ravage && settled(cx, p, &lo)) return lo;
    if (p->ntrick && lost_for_good(cx, p)) return 0;
    if (cx->penalties && sp->trump < 0 && !cx->relaxed && ducks_after_trick(cx, p)) return 0;
    bounds(cx, p, &lo, &hi);
    if (hi <= alpha) return hi;
    if (lo >= beta) return lo;
    u64 *e = NULL;
    u64 key[KEYLEN];
    int hint = -1, stored = 0;
    if (!p->ntrick) {
        if (cx->relaxed) relaxed_key(cx, p, key);
        else make_key(cx, p, key);
        e = tt + (size_t)hash_key(key, cx->keylen) * cx->stride;
        u64 head = HEAD(e);
        if ((unsigned)head == tt_gen && !memcmp(e + 2, key, sizeof(u64) * cx->keylen)) {
            int lower = LOWER_OF(e), upper = UPPER_OF(e);
            if (lower >= beta || lower == upper) return lower;
            if (upper <= alpha) return upper;
            if (lower > alpha) alpha = lower;
            if (upper < beta) beta = upper;
            stored = 1;
            if (turn_of(sp, p) != cx->seat || lower > -INF) hint = from_relative((unsigned char)(head >> 40), p->in_hands);
        }
    }
    int a0 = alpha, b0 = beta;  /* the window searched, narrowed by what the table knew */
    int turn = turn_of(sp, p);
    u64 hand = p->hands[turn];
    int moves[52];
    int k;
    if (cx->relaxed && turn != cx->seat) {
        /* One of the others: any of their cards in common, of a suit its own hand may play. */
        u64 pool = p->in_hands & ~p->hands[cx->seat], legal = legal_of(sp, hand, p), suits = 0;
        for (int x = 0; x < 4; x++) if (legal & SUIT[x]) suits |= SUIT[x];
        k = band_ends(sp, pool & suits, pool, p->in_hands | p->trick_mask, moves);
    } else k = distinct_moves(sp, legal_of(sp, hand, p), hand, p->in_hands | p->trick_mask, moves);
    /* The best move stored for this position first, then the cards with most cut-offs. */
    int score[52], danger[5] = {0, 0, 0, 0, 0};  /* the searched seat's danger, by suit and in all */
    if (cx->penalties && turn == cx->seat) {
        u64 others = p->in_hands & ~hand;
        for (int x = 0; x < 4; x++) danger[4] += danger[x] = danger_in_suit(hand & SUIT[x], others & SUIT[x]);
    }
    for (int i = 0; i < k; i++) {
        int h = cx->history[turn][moves[i]];
        if (cx->gains) h = (gain_order(cx, p, turn, moves[i]) << 20) + (h < (1 << 20) ? h : (1 << 20) - 1);
        else if (cx->penalties && turn == cx->seat)
            h = (seat_order(cx, p, moves[i], danger) << 12) + (h < (1 << 12) ? h : (1 << 12) - 1);
        else if (cx->penalties) h = (order_class(cx, p, turn, moves[i]) << 20) + (h < (1 << 20) ? h : (1 << 20) - 1);
        score[i] = moves[i] == hint ? INF : h;
    }
    for (int i = 1; i < k; i++) {
        int m = moves[i], sc = score[i], j = i - 1;
        while (j >= 0 && score[j] < sc) { moves[j + 1] = moves[j]; score[j + 1] = score[j]; j--; }
        moves[j + 1] = m;
        score[j + 1] = sc;
    }
    int maximise = turn == cx->seat;
    int best = maximise ? -INF : INF, best_card = k ? moves[0] : 0;
    for (int i = 0; i < k; i++) {
        Pos child = *p;
        if (cx->relaxed && !(hand >> moves[i] & 1)) take_from_pool(sp, &child, turn, moves[i]);
        int w = play(sp, &child, moves[i]);
        int gain = w >= 0 ? trick_points(cx, p, moves[i], w) : 0;
        int v = gain + SEARCH(cx, &child, alpha - gain, beta - gain);
        if (cx->aborted) return 0;  /* a value cut short: neither used nor stored */
        if (maximise) {
            if (v > best) { best = v; best_card = moves[i]; if (v > alpha) alpha = v; }
        } else if (v < best) { best = v; best_card = moves[i]; if (v < beta) beta = v; }
        if (alpha >= beta) {
            int left = __builtin_popcountll(p->in_hands);
            cx->history[turn][moves[i]] += left * left;
            break;
        }
    }
    if (e) {
        int lower = best <= a0 ? -INF : best, upper = best >= b0 ? INF : best;
        if (stored && (unsigned)HEAD(e) == tt_gen && !memcmp(e + 2, key, sizeof(u64) * cx->keylen)) {
            /* Still this position's entry: what it knew holds too. */
            if (LOWER_OF(e) > lower) lower = LOWER_OF(e);
            if (UPPER_OF(e) < upper) upper = UPPER_OF(e);
        }
        HEAD(e) = tt_gen | (u64)to_relative(best_card, p->in_hands) << 40;
        e[1] = BOUNDS(lower, upper);
        memcpy(e + 2, key, sizeof(u64) * cx->keylen);
    }
    return best;
}

#ifdef BARBU_COUNT
#include "_count.h"
#endif

/* MTD(f): a series of null-window searches closing in on the value; the table keeps their bounds.  With a
 * budget (`cx->budget`) it may stop early: ``*lo_out`` and ``*hi_out`` are then what the finished passes proved. */
static int mtdf_passes(Ctx *cx, const Pos *p, int *lo, int *hi, int g) {
    while (*lo < *hi) {
        int beta = g == *lo ? g + 1 : g;
        g = SEARCH(cx, p, beta - 1, beta);
        if (cx->aborted) return 0;
        if (g < beta) *hi = g; else *lo = g;
    }
    return 1;
}

static void mtdf_bounds(Ctx *cx, const Pos *p, int *lo_out, int *hi_out) {
    int lo, hi;
    bounds(cx, p, &lo, &hi);
    int g = 0 < lo ? lo : 0 > hi ? hi : 0;
    if (!cx->budget || !cx->relax_root) {
        mtdf_passes(cx, p, &lo, &hi, g);
    } else {
        /* With a budget, where the relaxed game applies: seven eighths of it for the real search, and if that
         * does not finish, the rest for the relaxed game's value, a floor (it lies under the proved ceiling;
         * reaching it makes the cell exact).  Otherwise a cut-short search proves no floor above the static one:
         * its passes that would succeed must try every card of the three others.  (Three quarters proved more
         * floors and fewer exact cells: docs/solver.md, "The sixth pass".) */
        long budget = cx->budget;
        long share = (budget - cx->nodes) / 8 * 7;
        cx->budget = cx->nodes + (share > 0 ? share : 1);  /* never 0, which would mean no budget */
        if (!mtdf_passes(cx, p, &lo, &hi, g)) {
            cx->aborted = 0;
            cx->budget = budget;
            cx->relaxed = 1;
            int rlo = lo, rhi = hi;
            mtdf_passes(cx, p, &rlo, &rhi, rlo);
            cx->relaxed = 0;
            if (rlo > lo) lo = rlo;
        }
    }
    *lo_out = lo;
    *hi_out = hi;
}

static int mtdf(Ctx *cx, const Pos *p) {
    int lo, hi;
    mtdf_bounds(cx, p, &lo, &hi);
    return lo;
}

/* The points a seat has already made in a position (tricks, cards, last tricks once played). */
static long accrued_of(const Spec *sp, const Pos *p, int first_last, int s) {
    long pts = (long)sp->per_trick * p->tricks_won[s];
    u64 w = p->won[s] & (sp->pos_mask | sp->neg_mask);
    while (w) { pts += sp->values[__builtin_ctzll(w)]; w &= w - 1; }
    for (int t = 0; t < p->nwin && t < MAXTRICKS; t++)
        if (p->winners[t] == s && t >= first_last) pts += sp->last[t - first_last];
    return pts;
}

/* Each seat's final points: what it has, plus what it is sure of from here. */
static int solve_pos(const Spec *sp, const Pos *p, long *out, long *nodes) {
    int n = sp->n;
    int total = p->nwin + (__builtin_popcountll(p->in_hands) + p->ntrick) / n;
    if (total > MAXTRICKS) { PyErr_SetString(PyExc_ValueError, "state: too many tricks"); return -1; }
    Ctx cx = {.sp = sp, .seat = 0, .first_last = total - sp->nlast};
    set_key_length(&cx);
    use_table_for(sp, total);
    for (int s = 0; s < n; s++) {
        long pts = accrued_of(sp, p, cx.first_last, s);
        cx.seat = s;
        memset(cx.history, 0, sizeof cx.history);
        out[s] = pts + mtdf(&cx, p);
    }
    *nodes += cx.nodes;
    last_nodes = cx.nodes;
    return 0;
}

/* The seat to play's points after each of its legal cards (equivalent cards share their value). */
static int move_values(const Spec *sp, const Pos *p, int *cards, long *values, long *nodes) {
    int n = sp->n;
    int total = p->nwin + (__builtin_popcountll(p->in_hands) + p->ntrick) / n;
    if (total > MAXTRICKS) { PyErr_SetString(PyExc_ValueError, "state: too many tricks"); return -1; }
    int seat = turn_of(sp, p);
    Ctx cx = {.sp = sp, .seat = seat, .first_last = total - sp->nlast};
    set_key_length(&cx);
    memset(cx.history, 0, sizeof cx.history);
    use_table_for(sp, total);
    long pts = accrued_of(sp, p, cx.first_last, seat);
    u64 hand = p->hands[seat];
    u64 legal = legal_of(sp, hand, p);
    u64 others = (p->in_hands | p->trick_mask) & ~hand;
    int k = 0, prev = -1;
    long prev_value = 0;
    while (legal) {
        int c = __builtin_ctzll(legal);
        legal &= legal - 1;
        if (!(prev >= 0 && prev / 13 == c / 13 && sp->values[prev] == sp->values[c]
              && !(others & ((1ULL << c) - (1ULL << (prev + 1)))))) {
            Pos child = *p;
            int win = play(sp, &child, c);
            int gain = win >= 0 ? trick_points(&cx, p, c, win) : 0;
            prev_value = pts + gain + mtdf(&cx, &child);
        }
        cards[k] = c;
        values[k++] = prev_value;
        prev = c;
    }
    *nodes += cx.nodes;
    last_nodes = cx.nodes;
    return k;
}

/* The table starts on a cache line (64 bytes), so that an entry of 8 words is one line, not two. */
static int ensure_tt(void) {
    if (!tt) {
        u64 *block = calloc(TT_BYTES / sizeof(u64) + 8, sizeof(u64));  /* kept for the process's life */
        if (!block) { PyErr_NoMemory(); return -1; }
        tt = (u64 *)(((uintptr_t)block + 63) & ~(uintptr_t)63);
    }
    return 0;
}

static PyObject *py_solve_many(PyObject *self, PyObject *args) {
    PyObject *spec_o, *states;
    if (!PyArg_ParseTuple(args, "OO", &spec_o, &states)) return NULL;
    Spec sp;
    if (read_spec(spec_o, &sp) < 0 || ensure_tt() < 0) return NULL;
    PyObject *seq = PySequence_Fast(states, "states must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(k);
    if (!out) { Py_DECREF(seq); return NULL; }
    long nodes = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        Pos p;
        long pts[MAXP];
        if (read_state(PySequence_Fast_GET_ITEM(seq, i), &sp, &p) < 0) goto fail;
        if (p.nwin > MAXTRICKS) { PyErr_SetString(PyExc_ValueError, "state: too many tricks"); goto fail; }
        if (solve_pos(&sp, &p, pts, &nodes) < 0) goto fail;
        PyObject *r = scores_tuple(pts, sp.n);
        if (!r) goto fail;
        PyList_SET_ITEM(out, i, r);
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *spec_o, *state;
    if (!PyArg_ParseTuple(args, "OO", &spec_o, &state)) return NULL;
    PyObject *batch = Py_BuildValue("(O[O])", spec_o, state);
    if (!batch) return NULL;
    PyObject *res = py_solve_many(self, batch);
    Py_DECREF(batch);
    if (!res) return NULL;
    PyObject *one = PyList_GET_ITEM(res, 0);
    Py_INCREF(one);
    Py_DECREF(res);
    return one;
}

/* The seat's final points in the relaxed game (`relaxed_key`), a floor of its real ones: for the tests. */
static PyObject *py_relaxed_floor(PyObject *self, PyObject *args) {
    PyObject *spec_o, *state;
    int seat;
    if (!PyArg_ParseTuple(args, "OOi", &spec_o, &state, &seat)) return NULL;
    Spec sp;
    Pos p;
    if (read_spec(spec_o, &sp) < 0 || ensure_tt() < 0 || read_state(state, &sp, &p) < 0) return NULL;
    if (seat < 0 || seat >= sp.n) { PyErr_SetString(PyExc_ValueError, "seat: out of range"); return NULL; }
    if (sp.n < 3 || sp.nclasses < 0 || sp.ravage) { PyErr_SetString(PyExc_ValueError, "spec: no relaxed game for these rules"); return NULL; }
    int total = p.nwin + (__builtin_popcountll(p.in_hands) + p.ntrick) / sp.n;
    if (p.nwin > MAXTRICKS || total > MAXTRICKS) { PyErr_SetString(PyExc_ValueError, "state: too many tricks"); return NULL; }
    Ctx cx = {.sp = &sp, .seat = seat, .first_last = total - sp.nlast};
    set_key_length(&cx);
    cx.relaxed = 1;
    memset(cx.history, 0, sizeof cx.history);
    use_table_for(&sp, total);
    long pts = accrued_of(&sp, &p, cx.first_last, seat);
    return PyLong_FromLong(pts + mtdf(&cx, &p));
}

/* One seat's paranoid search with a budget of positions: the least and the most its final points can be,
 * as far as the search got (equal once it finished), and the positions searched. */
static PyObject *py_solve_seat(PyObject *self, PyObject *args) {
    PyObject *spec_o, *state;
    int seat;
    long budget = 0;
    if (!PyArg_ParseTuple(args, "OOi|l", &spec_o, &state, &seat, &budget)) return NULL;
    Spec sp;
    Pos p;
    if (read_spec(spec_o, &sp) < 0 || ensure_tt() < 0 || read_state(state, &sp, &p) < 0) return NULL;
    if (seat < 0 || seat >= sp.n) { PyErr_SetString(PyExc_ValueError, "seat: out of range"); return NULL; }
    if (budget < 0) { PyErr_SetString(PyExc_ValueError, "budget: must be 0 (none) or more"); return NULL; }
    int total = p.nwin + (__builtin_popcountll(p.in_hands) + p.ntrick) / sp.n;
    if (p.nwin > MAXTRICKS || total > MAXTRICKS) { PyErr_SetString(PyExc_ValueError, "state: too many tricks"); return NULL; }
    Ctx cx = {.sp = &sp, .seat = seat, .first_last = total - sp.nlast, .budget = budget};
    set_key_length(&cx);
    memset(cx.history, 0, sizeof cx.history);
    use_table_for(&sp, total);
    long pts = accrued_of(&sp, &p, cx.first_last, seat);
    int lo, hi;
    mtdf_bounds(&cx, &p, &lo, &hi);
    last_nodes = cx.nodes;
    return Py_BuildValue("(lll)", pts + lo, pts + hi, cx.nodes);
}

static PyObject *py_move_values(PyObject *self, PyObject *args) {
    PyObject *spec_o, *states;
    if (!PyArg_ParseTuple(args, "OO", &spec_o, &states)) return NULL;
    Spec sp;
    if (read_spec(spec_o, &sp) < 0 || ensure_tt() < 0) return NULL;
    PyObject *seq = PySequence_Fast(states, "states must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(k);
    if (!out) { Py_DECREF(seq); return NULL; }
    long nodes = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        Pos p;
        int cards[52];
        long values[52];
        if (read_state(PySequence_Fast_GET_ITEM(seq, i), &sp, &p) < 0) goto fail;
        if (is_over(&sp, &p)) { PyErr_SetString(PyExc_ValueError, "state: the deal is over"); goto fail; }
        int m = move_values(&sp, &p, cards, values, &nodes);
        if (m < 0) goto fail;
        PyObject *r = PyTuple_New(m);
        if (!r) goto fail;
        PyList_SET_ITEM(out, i, r);
        for (int j = 0; j < m; j++) {
            PyObject *pair = Py_BuildValue("(il)", cards[j], values[j]);
            if (!pair) goto fail;
            PyTuple_SET_ITEM(r, j, pair);
        }
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

static PyObject *py_rule_cards(PyObject *self, PyObject *args) {
    PyObject *spec_o, *situations;
    unsigned long long pm_v;
    if (!PyArg_ParseTuple(args, "OKO", &spec_o, &pm_v, &situations)) return NULL;
    Spec sp;
    if (read_spec(spec_o, &sp) < 0) return NULL;
    if (pm_v >> 52) { PyErr_SetString(PyExc_ValueError, "the penalty mask has bits above the 52 cards"); return NULL; }
    PyObject *seq = PySequence_Fast(situations, "situations must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(k);
    if (!out) { Py_DECREF(seq); return NULL; }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
        u64 hand, legal, others;
        long v[MAXP], left;
        int trick[MAXP];
        Py_ssize_t m;
        if (!item(t, 0, 5, "a situation (hand, legal, trick, others, tricks_left)")) goto fail;
        if (get_mask(PyTuple_GET_ITEM(t, 0), &hand) < 0 || get_mask(PyTuple_GET_ITEM(t, 1), &legal) < 0
            || (m = get_ints(PyTuple_GET_ITEM(t, 2), v, -1, sp.n - 1, "situation trick")) < 0
            || get_mask(PyTuple_GET_ITEM(t, 3), &others) < 0 || get_long(PyTuple_GET_ITEM(t, 4), &left) < 0) goto fail;
        if (!legal || (legal & ~hand)) {
            PyErr_SetString(PyExc_ValueError, "situation: the legal cards must be some of the hand's cards");
            goto fail;
        }
        if (left < 1) { PyErr_SetString(PyExc_ValueError, "situation: tricks_left counts the trick in progress"); goto fail; }
        for (int j = 0; j < m; j++) {
            if (v[j] < 0 || v[j] > 51) { PyErr_SetString(PyExc_ValueError, "situation: a card is not 0..51"); goto fail; }
            trick[j] = (int)v[j];
        }
        PyObject *c = PyLong_FromLong(rule_card(&sp, (u64)pm_v, hand, legal, trick, (int)m, others,
                                                left > MAXTRICKS ? MAXTRICKS : (int)left));
        if (!c) goto fail;
        PyList_SET_ITEM(out, i, c);
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

/* The seat to play's best card by the exact solver, the lowest of equals (agents.search.best_exact_card). */
static int best_exact(const Spec *sp, const Pos *p, long *nodes) {
    int cards[52];
    long values[52];
    int m = move_values(sp, p, cards, values, nodes);
    if (m <= 0) return -1;
    int best = cards[0];
    long best_value = values[0];
    for (int j = 1; j < m; j++) if (values[j] > best_value) { best = cards[j]; best_value = values[j]; }
    return best;
}

/* The rest of the deal with `root` playing its best against the rule player's cards of every other seat
 * (the opponents the playouts assume): its best is the most of sum(w[s] * points[s]) (its own points, its
 * doubles settled); each of its legal cards is tried, lowest first, and the first of the best kept.  The
 * final points by seat go to `out`; with a `line`, the cards played go there too (the count is returned). */
static inline long weigh_points(const long *w, const long *v, int n) {
    long t = 0;
    for (int s = 0; s < n; s++) t += w[s] * v[s];
    return t;
}

static int best_response(const Spec *sp, u64 pm, const Pos *p, int root, const long *w, long *out, int *line) {
    Pos q = *p;
    int count = 0;
    while (!is_over(sp, &q)) {
        int turn = turn_of(sp, &q);
        u64 hand = q.hands[turn], legal = legal_of(sp, hand, &q);
        if (turn == root && (legal & (legal - 1))) {
            long best[MAXP], v[MAXP], top = 0;
            int have = 0, rest[52], best_line[52], best_count = 0;
            for (u64 m = legal; m; m &= m - 1) {
                Pos r = q;
                int c = __builtin_ctzll(m);
                play(sp, &r, c);
                int k = best_response(sp, pm, &r, root, w, v, line ? rest + 1 : NULL);
                long x = weigh_points(w, v, sp->n);
                if (!have || x > top) {
                    memcpy(best, v, sizeof(long) * sp->n);
                    top = x;
                    have = 1;
                    if (line) {
                        rest[0] = c;
                        best_count = k + 1;
                        memcpy(best_line, rest, sizeof(int) * best_count);
                    }
                }
            }
            memcpy(out, best, sizeof(long) * sp->n);
            if (line) memcpy(line + count, best_line, sizeof(int) * best_count);
            return count + best_count;
        }
        int c = rule_card(sp, pm, hand, legal, q.trick, q.ntrick, q.in_hands & ~hand, __builtin_popcountll(hand));
        play(sp, &q, c);
        if (line) line[count++] = c;
    }
    score_pos(sp, &q, out);
    return count;
}

/* The weights of `best_response` from a Python sequence (None: root's own points). */
static int read_weights(PyObject *o, const Spec *sp, int root, long *w) {
    memset(w, 0, sizeof(long) * MAXP);
    if (o != Py_None) return get_ints(o, w, sp->n, sp->n, "weights") < 0 ? -1 : 0;
    if (root >= 0) w[root] = 1;
    return 0;
}

static PyObject *py_rule_playouts(PyObject *self, PyObject *args) {
    PyObject *spec_o, *states, *weights_o = Py_None;
    unsigned long long pm_v;
    int end_cards, root = -1;
    if (!PyArg_ParseTuple(args, "OKOi|iO", &spec_o, &pm_v, &states, &end_cards, &root, &weights_o)) return NULL;
    Spec sp;
    if (read_spec(spec_o, &sp) < 0) return NULL;
    if (pm_v >> 52) { PyErr_SetString(PyExc_ValueError, "the penalty mask has bits above the 52 cards"); return NULL; }
    if (root >= sp.n) { PyErr_SetString(PyExc_ValueError, "root: not a seat of this deal"); return NULL; }
    long w[MAXP];
    if (read_weights(weights_o, &sp, root, w) < 0) return NULL;
    if (end_cards > 0 && ensure_tt() < 0) return NULL;
    PyObject *seq = PySequence_Fast(states, "states must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(k);
    if (!out) { Py_DECREF(seq); return NULL; }
    long nodes = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        Pos p;
        long pts[MAXP];
        if (read_state(PySequence_Fast_GET_ITEM(seq, i), &sp, &p) < 0) goto fail;
        if (p.nwin + (__builtin_popcountll(p.in_hands) + p.ntrick) / sp.n > MAXTRICKS) {
            PyErr_SetString(PyExc_ValueError, "state: too many tricks");
            goto fail;
        }
        int responded = 0;
        while (!is_over(&sp, &p)) {
            int turn = turn_of(&sp, &p);
            u64 hand = p.hands[turn], legal = legal_of(&sp, hand, &p);
            if (!legal) { PyErr_SetString(PyExc_ValueError, "state: the seat to play holds no card"); goto fail; }
            if (root >= 0 && end_cards > 0 && __builtin_popcountll(p.hands[root]) <= end_cards) {
                best_response(&sp, (u64)pm_v, &p, root, w, pts, NULL);
                responded = 1;
                break;
            }
            int c;
            if (!(legal & (legal - 1))) c = __builtin_ctzll(legal);
            else if (end_cards > 0 && __builtin_popcountll(hand) <= end_cards) {
                if ((c = best_exact(&sp, &p, &nodes)) < 0) goto fail;
            } else c = rule_card(&sp, (u64)pm_v, hand, legal, p.trick, p.ntrick, p.in_hands & ~hand,
                                 __builtin_popcountll(hand));
            play(&sp, &p, c);
        }
        if (!responded) score_pos(&sp, &p, pts);
        PyObject *r = scores_tuple(pts, sp.n);
        if (!r) goto fail;
        PyList_SET_ITEM(out, i, r);
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

static PyObject *py_respond_line(PyObject *self, PyObject *args) {
    PyObject *spec_o, *state_o, *weights_o = Py_None;
    unsigned long long pm_v;
    int root;
    if (!PyArg_ParseTuple(args, "OKOi|O", &spec_o, &pm_v, &state_o, &root, &weights_o)) return NULL;
    Spec sp;
    Pos p;
    if (read_spec(spec_o, &sp) < 0) return NULL;
    if (pm_v >> 52) { PyErr_SetString(PyExc_ValueError, "the penalty mask has bits above the 52 cards"); return NULL; }
    if (root < 0 || root >= sp.n) { PyErr_SetString(PyExc_ValueError, "root: not a seat of this deal"); return NULL; }
    long w[MAXP], pts[MAXP];
    if (read_weights(weights_o, &sp, root, w) < 0) return NULL;
    if (read_state(state_o, &sp, &p) < 0) return NULL;
    if (p.nwin + (__builtin_popcountll(p.in_hands) + p.ntrick) / sp.n > MAXTRICKS) {
        PyErr_SetString(PyExc_ValueError, "state: too many tricks");
        return NULL;
    }
    if (!is_over(&sp, &p) && !legal_pos(&sp, &p)) {
        PyErr_SetString(PyExc_ValueError, "state: the seat to play holds no card");
        return NULL;
    }
    int line[52];
    int k = best_response(&sp, (u64)pm_v, &p, root, w, pts, line);
    PyObject *cards = PyList_New(k);
    if (!cards) return NULL;
    for (int i = 0; i < k; i++) {
        PyObject *c = PyLong_FromLong(line[i]);
        if (!c) { Py_DECREF(cards); return NULL; }
        PyList_SET_ITEM(cards, i, c);
    }
    PyObject *points = scores_tuple(pts, sp.n);
    if (!points) { Py_DECREF(cards); return NULL; }
    return Py_BuildValue("(NN)", points, cards);
}

static PyObject *py_last_nodes(PyObject *self, PyObject *noargs) { return PyLong_FromLong(last_nodes); }


static PyMethodDef methods[] = {
    {"last_nodes", py_last_nodes, METH_NOARGS, "last_nodes() -> positions the last seat's search visited"},
    {"legal_moves", py_legal_moves, METH_VARARGS, "legal_moves(spec, states) -> the legal cards (a mask) of each"},
    {"trick_winners", py_trick_winners, METH_VARARGS, "trick_winners(spec, tricks) -> the winner of each (leader, cards)"},
    {"deal_scores", py_deal_scores, METH_VARARGS, "deal_scores(spec, outcomes) -> base points of each (won, tricks_won, winners)"},
    {"playouts", py_playouts, METH_VARARGS, "playouts(spec, states, seed) -> base points of one random playout of each"},
    {"solve", py_solve, METH_VARARGS, "solve(spec, state) -> each seat's exact points (paranoid search per seat)"},
    {"solve_seat", py_solve_seat, METH_VARARGS, "solve_seat(spec, state, seat, budget=0) -> (least, most, positions): one seat's final points as far as a search of at most budget positions proved them (0: no limit, least == most)"},
    {"move_values", py_move_values, METH_VARARGS, "move_values(spec, states) -> ((card, points), ...) for the seat to play in each"},
    {"rule_cards", py_rule_cards, METH_VARARGS, "rule_cards(spec, pm, situations) -> the rule player's card in each (hand, legal, trick, others, tricks_left)"},
    {"rule_playouts", py_rule_playouts, METH_VARARGS, "rule_playouts(spec, pm, states, end_cards, root=-1) -> points of each deal played to its end by the rule player (the solver's best card from end_cards cards a hand; with root, from end_cards cards in root's hand root plays its best response to the others' rule cards, maximising sum(weights[s] * points[s]), by default its own points)"},
    {"respond_line", py_respond_line, METH_VARARGS, "respond_line(spec, pm, state, root, weights=None) -> (points, cards): the rest of the deal with root playing its best response to the others' rule cards, as rule_playouts ends it"},
    {"solve_many", py_solve_many, METH_VARARGS, "solve_many(spec, states) -> solve() of each"},
    {"relaxed_floor", py_relaxed_floor, METH_VARARGS, "relaxed_floor(spec, state, seat) -> the seat's final points when the others hold their cards in common (a floor of solve's)"},
#ifdef BARBU_COUNT
    {"counts", py_counts, METH_O, "counts(reset) -> the counting build's counters (docs/solver.md)"},
#endif
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fast", "The solver's compiled core (see pure.py).", -1, methods};

#ifdef BARBU_POPCNT
#pragma GCC pop_options
#endif

PyMODINIT_FUNC PyInit__fast(void) {
#ifdef BARBU_POPCNT
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "the compiled solver needs the processor's POPCNT instruction");
        return NULL;
    }
#endif
    return PyModule_Create(&module);
}
