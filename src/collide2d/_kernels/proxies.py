"""The broadphase's proxies and the pairs it keeps from step to step (after Box2D's
enlarged boxes).

Each shape has a proxy (``ShapeView.proxy``): its fattened box enlarged by
``poses.PROXY_MARGIN``, set again only when the fattened box leaves it (``poses.enclose``,
which marks the shape ``escaped``). The step buffers keep the pairs whose proxies overlap,
with their responses (``proxy_a``, ``proxy_b``, ``proxy_resp``: sorted, shape rows a < b).
A step then finds them again only for the shapes whose proxies moved: a pile at rest finds
none, rain a few (while many move, it pairs the fattened boxes afresh as it did without
proxies). The step's candidate pairs are the kept pairs whose fattened boxes
overlap: every proxy holds its fattened box, so these are exactly the pairs a grid over the
fattened boxes finds, in the same order, and the contacts are the same bits.

The kept pairs are valid while nothing that decides a response changes (shapes added or
removed, filters, pair rules, joints, body kinds): the surface then clears the settings
row's ``pairs_kept``, and replacing the buffers clears the step record's. While they are
kept, the pairs of two bodies that can not move are left out of the candidates: their
manifolds sleep aside unchanged (asleep.py). When the shapes of bodies that can move are
few (a player in a sleeping level), those candidates are found by testing each such shape
against every shape, without reading the kept pairs, which wait with their escaped
proxies for a step that reads them (``few_movers_pairs``).
"""

from .._jit import njit
from .broadphase import _in_sweep, box_pair_response, boxes_apart, pairs_into, sort_range
from .constants import SOLID

# At most this many moved proxies are paired again one by one (each against every shape);
# past it, the grid finds every pair.
KEPT_ESCAPES = 32
# At most this many new pairs are merged into the kept ones (sorted by insertion).
KEPT_NEW = 256
# While few shapes can move among many that can not (a player in a sleeping level), their
# candidates are found by testing each against every shape, when that takes at most this
# many box tests per kept pair (a kept pair's test reads two bodies' flags at random).
MOVER_TESTS = 2
# Past this many moved proxies the grid pairs the fattened boxes and keeps nothing: the
# next steps will likely move as many, and the proxies overlap more. The same bound as
# KEPT_ESCAPES: proxy pairs are found by the grid only where the next step can keep them.
GRID_ESCAPES = KEPT_ESCAPES


@njit(_nrt=False)
def proxy_pairs(ps_fat, ps, escaped, n_shapes, dynamic_response, kept, candidates, room,
                prm, st, moving, any_still):
    """The step's candidate solid pairs into ``candidates`` = (a, b, response). Returns
    how many; past the ``room``, the rows the step needs (nothing usable written: the
    caller grows the buffers to that many; after the grid over the proxies, as many as
    the proxy pairs). ``ps_fat`` and ``ps`` are ``PairShapes`` of the fattened
    boxes and of the proxies, ``prm`` the settings row, ``st`` the step record.

    The kept proxy pairs (``kept``: the buffers' proxy arrays) brought up to date, or
    found again by the grid over the proxies while few proxies move; then those whose
    fattened boxes overlap. While many move (a pile falling), the grid over the
    fattened boxes finds the candidates directly, as fewer boxes overlap there, and no
    pairs are kept.

    Kept pairs of two shapes whose bodies can not move (``moving``: per body, 0 for
    those, ``narrowphase.body_moving``) are left out (the step record's ``quiet`` then
    1): their manifolds sleep as they are (asleep.py), and with nothing moved and nothing
    changed since they were kept they are still candidates. Found again, every pair
    is a candidate (``quiet`` 0): a change may have ended some; so it is while every body
    that is not static moves (``any_still`` False), when only static pairs, never
    candidates, would be left out. With few shapes able to move, the quiet candidates
    come from ``few_movers_pairs`` and the kept pairs are left as they are, the proxies
    that escaped still marked and counted for the next step that reads them."""
    n_escaped = prm["n_escaped"]
    st["quiet"] = 0
    n = -1
    if prm["pairs_kept"] != 0 and st["pairs_kept"] != 0:
        if any_still:
            k = few_movers_pairs(ps_fat, n_shapes, dynamic_response, moving, candidates,
                                 min(room, KEPT_NEW), MOVER_TESTS * st["n_kept"])
            if k >= 0:
                # The kept pairs and the proxies that escaped wait for a step that reads them.
                st["quiet"] = 1
                return k
        n = update_kept(ps, escaped, n_shapes, dynamic_response, kept, st["n_kept"],
                        n_escaped, room)
    if n < 0:
        prm["pairs_kept"] = 0
        st["pairs_kept"] = 0
        for r in range(n_shapes):
            escaped[r] = False
        prm["n_escaped"] = 0
        if n_escaped > GRID_ESCAPES:
            return pairs_into(ps_fat, n_shapes, dynamic_response, SOLID, candidates, room)
        n = pairs_into(ps, n_shapes, dynamic_response, SOLID, kept, room)
        if n > room:
            return n
        prm["n_escaped"] = 0
        prm["pairs_kept"] = 1
        st["pairs_kept"] = 1
        st["n_kept"] = n
        return within_fat(kept, n, ps_fat.aabb, candidates, ps.body, moving, False)
    prm["n_escaped"] = 0
    st["n_kept"] = n
    st["quiet"] = 1 if any_still else 0
    return within_fat(kept, n, ps_fat.aabb, candidates, ps.body, moving, any_still)


@njit(_nrt=False)
def update_kept(ps, escaped, n_shapes, dynamic_response, kept, n_kept, n_escaped, room):
    """The kept proxy pairs (the first ``n_kept`` of ``kept``) with the escaped shapes'
    pairs found again, in place, sorted; their number, or -1 where the grid is cheaper or
    they would not fit (then ``kept`` is left unusable)."""
    if n_escaped == 0:
        return n_kept
    if n_escaped > KEPT_ESCAPES:
        return -1
    ka, kb, kr = kept
    # The pairs of shapes that stayed, in order, to the front (written only behind the
    # first dropped pair: a pile with one shape escaped keeps most rows where they are).
    m = 0
    for u in range(n_kept):
        a = ka[u]
        b = kb[u]
        if escaped[a] or escaped[b]:
            continue
        if m != u:
            ka[m] = a
            kb[m] = b
            kr[m] = kr[u]
        m += 1
    # The escaped shapes' pairs, at the back (from room down): a pair of two escaped
    # shapes is found from the lower row.
    top = room
    for e in range(n_shapes):
        if not escaped[e]:
            continue
        if not _in_sweep(ps.flags[e], SOLID):
            continue
        for j in range(n_shapes):
            if j == e or (j < e and escaped[j]):
                continue
            resp = box_pair_response(ps, e, j, dynamic_response, SOLID)
            if resp != SOLID:
                continue
            # Room for the merged list below the new pairs, and a bound on the sort.
            if room - top == KEPT_NEW or m + 2 * (room - top + 1) > room:
                return -1
            top -= 1
            ka[top] = min(e, j)
            kb[top] = max(e, j)
            kr[top] = resp
    for r in range(n_shapes):
        escaped[r] = False
    sort_range(ka, kb, kr, top, room, n_shapes)  # (at most KEPT_NEW)
    return _merge_back(ka, kb, kr, m, top, room, n_shapes)


@njit(inline="always")
def _merge_back(ka, kb, kr, m, top, room, n_shapes):
    """The sorted pairs ``0:m`` and ``top:room`` merged into ``0:m + room - top``, from the
    back (the caller left room enough that no unread pair is overwritten); their number.
    Keys are distinct: a new pair has an escaped shape, a kept one none."""
    n = m + room - top
    i = m - 1
    j = room - 1
    for o in range(n - 1, -1, -1):
        if j < top:
            break  # every new pair placed: the kept ones below are where they belong (o == i)
        if i >= 0 and ka[i] * n_shapes + kb[i] > ka[j] * n_shapes + kb[j]:
            ka[o] = ka[i]
            kb[o] = kb[i]
            kr[o] = kr[i]
            i -= 1
        else:
            ka[o] = ka[j]
            kb[o] = kb[j]
            kr[o] = kr[j]
            j -= 1
    return n


@njit(_nrt=False)
def few_movers_pairs(ps_fat, n_shapes, dynamic_response, moving, candidates, room, tests):
    """The candidates ``within_fat`` gives with ``quiet`` (the kept pairs of a shape whose
    body can move, ``moving``, whose fattened boxes overlap), found without the kept pairs:
    each such shape tested against every shape, as the kept pairs hold every pair whose
    proxies overlap and whose response is solid, and a proxy holds its fattened box. Into
    ``candidates``, sorted as the kept pairs; how many, or -1 (nothing usable written) when
    that would take more than ``tests`` box tests or more than ``room`` pairs."""
    s_body = ps_fat.body
    s_flags = ps_fat.flags
    movers = 0
    for s in range(n_shapes):
        if _in_sweep(s_flags[s], SOLID) and moving[s_body[s]] != 0:
            movers += 1
            if movers * n_shapes > tests:
                return -1
    ca, cb, cr = candidates
    k = 0
    runs = 0
    for s in range(n_shapes):
        if not _in_sweep(s_flags[s], SOLID) or moving[s_body[s]] == 0:
            continue
        runs += 1
        for j in range(n_shapes):
            if j == s:
                continue
            resp = box_pair_response(ps_fat, s, j, dynamic_response, SOLID)
            # (a pair of two movers is the lower one's)
            if resp != SOLID or (j < s and moving[s_body[j]] != 0):
                continue
            if k == room:
                return -1
            ca[k] = min(s, j)
            cb[k] = max(s, j)
            cr[k] = resp
            k += 1
    if runs > 1:
        # Each mover's pairs come sorted; one mover's are all of them.
        sort_range(ca, cb, cr, 0, k, n_shapes)
    return k


@njit(_nrt=False)
def within_fat(kept, n, fat, candidates, s_body, moving, quiet):
    """The first ``n`` pairs of ``kept`` whose fattened boxes overlap, in order, into
    ``candidates`` (room for n); how many. ``quiet``: not those of two shapes whose bodies
    can not move (``moving`` 0 for both)."""
    ka, kb, kr = kept
    ca, cb, cr = candidates
    m = 0
    for u in range(n):
        a = ka[u]
        b = kb[u]
        if quiet and moving[s_body[a]] == 0 and moving[s_body[b]] == 0:
            continue
        if boxes_apart(fat, a, b):
            continue
        ca[m] = a
        cb[m] = b
        cr[m] = kr[u]
        m += 1
    return m
