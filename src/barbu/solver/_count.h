/* The counting build of the exact solver (`-DBARBU_COUNT`, never the shipped one): before a refinement is built,
 * how many positions it could remove at most, measured on the search as it stands (docs/solver.md, "The sixth
 * pass").  Included at the end of the search in _fast.c; `counted_search` wraps each call of `search`.
 *
 * - the last two tricks and three-card endings: the positions searched below each trick start with two (three)
 *   cards a hand, and below the three-card ones that the table held but could not answer for the window (what an
 *   exact cache of three-card endings would save at most);
 * - partition search: a shadow table whose key keeps only the searched seat's ranks against the others' cards
 *   together, each hand's suit lengths, the point cards, the leader and the seat (the set an entry would stand
 *   for in a penalty contract); where the real table cannot answer and the shadow can, the answer is checked
 *   against the search's own and the positions below the right answers counted;
 * - swap neighbours: where the table cannot answer, the positions that differ by one swap of two cards of two
 *   of the others, neighbours in rank among the cards in play with the same points, looked up in the table,
 *   checked and counted the same way.
 * A subtree is counted once, at its outermost right answer. */

enum {
    C_NODES, C_ROOT2, C_IN2, C_ROOT3, C_IN3, C_RE3, C_RE3_IN, C_MISS, C_MISS_IN,
    C_PART_ANS, C_PART_RIGHT, C_PART_SAVED, C_SWAP_ANS, C_SWAP_RIGHT, C_SWAP_SAVED, C_N
};
static const char *count_names[C_N] = {
    "nodes", "root2", "in2", "root3", "in3", "research3", "research3_in", "miss", "miss_in",
    "part_answers", "part_right", "part_saved", "swap_answers", "swap_right", "swap_saved",
};
static long counts[C_N];

#define SH_ENTRIES (1u << 19)
static u64 *shadow;  /* stride KEYLEN + 2: header (generation), bounds, coarse key */
#define SH_STRIDE (KEYLEN + 2)

static int coarse_key(const Ctx *cx, const Pos *p, u64 *key) {
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
    return k;
}

static inline int answers(int lower, int upper, int alpha, int beta) {
    return lower >= beta || upper <= alpha || lower == upper;
}

/* Is a claimed bound pair right about the value v a search of the window (alpha, beta) returned? */
static inline int right_about(int lower, int upper, int alpha, int beta, int v) {
    if (lower >= beta) return v >= beta;
    if (upper <= alpha) return v <= alpha;
    if (v > alpha && v < beta) return v == lower;
    return v >= beta ? lower >= beta : lower <= alpha;
}

/* The table's entry for a position, if it is there: 1 with its bounds. */
static int probe(const Ctx *cx, const Pos *p, int *lower, int *upper) {
    u64 key[KEYLEN];
    make_key(cx, p, key);
    u64 *e = tt + (size_t)hash_key(key, cx->keylen) * cx->stride;
    if ((unsigned)HEAD(e) != tt_gen || memcmp(e + 2, key, sizeof(u64) * cx->keylen)) return 0;
    *lower = LOWER_OF(e);
    *upper = UPPER_OF(e);
    return 1;
}

/* A neighbour one swap away that the table answers for this window: 1 with its bounds. */
static int swap_neighbour(const Ctx *cx, const Pos *p, int alpha, int beta, int *lower, int *upper) {
    const Spec *sp = cx->sp;
    int owner[52];
    for (int s = 0; s < sp->n; s++)
        for (u64 h = p->hands[s]; h; h &= h - 1) owner[__builtin_ctzll(h)] = s;
    for (int x = 0; x < 4; x++) {
        int prev = -1;
        for (u64 m = p->in_hands & SUIT[x]; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            if (prev >= 0 && owner[prev] != owner[c] && owner[prev] != cx->seat && owner[c] != cx->seat
                && sp->values[prev] == sp->values[c]) {
                Pos q = *p;
                u64 swap = (1ULL << prev) | (1ULL << c);
                q.hands[owner[prev]] ^= swap;
                q.hands[owner[c]] ^= swap;
                if (probe(cx, &q, lower, upper) && answers(*lower, *upper, alpha, beta)) return 1;
            }
            prev = c;
        }
    }
    return 0;
}

static int counted_search(Ctx *cx, const Pos *p, int alpha, int beta) {
    const Spec *sp = cx->sp;
    int n = sp->n, cards = __builtin_popcountll(p->in_hands);
    int start = !p->ntrick && !sp->ravage && sp->nclasses >= 0;
    if (!start) return search(cx, p, alpha, beta);
    if (!shadow) shadow = calloc((size_t)SH_ENTRIES * SH_STRIDE, sizeof(u64));
    static unsigned shadow_gen;
    static u64 shadow_for = ~0ULL;
    if (shadow_for != tt_gen) { shadow_for = tt_gen; shadow_gen++; }
    int lower, upper, held = probe(cx, p, &lower, &upper);
    int table_answers = held && answers(lower, upper, alpha, beta);
    int part = 0, swap = 0, pl = 0, pu = 0, sl = 0, su = 0;
    u64 ck[KEYLEN];
    u64 *se = NULL;
    int cklen = 0;
    if (!table_answers && cards >= 3 * n && shadow) {
        cklen = coarse_key(cx, p, ck);
        se = shadow + (size_t)(hash_key(ck, cklen) & (SH_ENTRIES - 1)) * SH_STRIDE;
        if (se[0] == shadow_gen && !memcmp(se + 2, ck, sizeof(u64) * cklen)) {
            pl = LOWER_OF(se);
            pu = UPPER_OF(se);
            part = answers(pl, pu, alpha, beta);
        }
        swap = swap_neighbour(cx, p, alpha, beta, &sl, &su);
    }
    long before = cx->nodes, part_acc = counts[C_PART_SAVED], swap_acc = counts[C_SWAP_SAVED];
    int v = search(cx, p, alpha, beta);
    if (cx->aborted) return v;
    long delta = cx->nodes - before;
    if (cards == 2 * n) { counts[C_ROOT2]++; counts[C_IN2] += delta; }
    if (cards == 3 * n) {
        counts[C_ROOT3]++;
        counts[C_IN3] += delta;
        if (held && !table_answers) { counts[C_RE3]++; counts[C_RE3_IN] += delta; }
    }
    if (!table_answers && cards >= 3 * n) { counts[C_MISS]++; counts[C_MISS_IN] += delta; }
    if (part) {
        counts[C_PART_ANS]++;
        if (right_about(pl, pu, alpha, beta, v)) { counts[C_PART_RIGHT]++; counts[C_PART_SAVED] = part_acc + delta - 1; }
    }
    if (swap) {
        counts[C_SWAP_ANS]++;
        if (right_about(sl, su, alpha, beta, v)) { counts[C_SWAP_RIGHT]++; counts[C_SWAP_SAVED] = swap_acc + delta - 1; }
    }
    if (se) {  /* what the search showed, stored under the coarse key as the table stores it */
        int lo = v <= alpha ? -INF : v, hi = v >= beta ? INF : v;
        if (se[0] == shadow_gen && !memcmp(se + 2, ck, sizeof(u64) * cklen)) {
            int ol = LOWER_OF(se), ou = UPPER_OF(se);
            if (ol > lo && ol <= hi) lo = ol;
            if (ou < hi && ou >= lo) hi = ou;
        }
        se[0] = shadow_gen;
        se[1] = BOUNDS(lo, hi);
        memcpy(se + 2, ck, sizeof(u64) * cklen);
    }
    return v;
}

static PyObject *py_counts(PyObject *self, PyObject *reset) {
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    counts[C_NODES] = 0;
    for (int i = 0; i < C_N; i++) {
        PyObject *v = PyLong_FromLong(counts[i]);
        if (!v || PyDict_SetItemString(d, count_names[i], v) < 0) { Py_XDECREF(v); Py_DECREF(d); return NULL; }
        Py_DECREF(v);
    }
    if (PyObject_IsTrue(reset)) memset(counts, 0, sizeof counts);
    return d;
}
