"""numba twin of the simulator's well-formed path: bytes in, the contest's output bytes out.

It reads cases token by token from a byte buffer and stops at anything it does not handle
(a malformed token, a mixed lead, a third copy of a card, bytes other than ASCII letters,
digits and blanks, the end of the buffer): the caller hands the rest to the pure-Python
simulator (engine/tractor/simulate.py), which gives the exact error or result. The rules are
the ones in tricks.py (docs/rules/tractor.md#trick-winner); tests check both on every shared
case and on bot-played and mangled inputs.
"""

import numpy as np

from engine.core.jit import kernel
from engine.tractor.rules import CARD_IDS, MAIN_LETTERS, POINTS, RANKS, TOKEN, ordering

DONE, MORE, FALLBACK = 0, 1, 2  # what simulate_chunk stopped at
CODES = 144  # order codes are < (TRUMP_GROUP + 1) << 4
_TRUMP = 8
_MAX = 25  # cards a player plays


def code_tables() -> np.ndarray:
    """codes[main, cr, card id] from rules.ordering (one source of the card order)."""
    out = np.zeros((len(MAIN_LETTERS), len(RANKS), CARD_IDS), np.int64)
    for main in range(len(MAIN_LETTERS)):
        for cr in range(len(RANKS)):
            out[main, cr] = ordering(main, cr).code
    return out


def card_table() -> np.ndarray:
    """card id of a two-letter token, indexed [first byte, second byte]; -1 for none."""
    out = np.full((128, 128), -1, np.int64)
    for i, token in enumerate(TOKEN):
        out[ord(token[0]), ord(token[1])] = i
    return out


POINTS_ARRAY = np.array(POINTS, np.int64)
SEAT_NAMES = ("Alice", "Bob", "Charles", "David")


@kernel
def _blank(b):
    return b == 32 or 9 <= b <= 13


@kernel
def _token(buf, pos, end):
    """(start, stop) of the next token, or (-1, pos) at the end, or (-2, at) on a byte it
    does not handle (Python's split() treats more bytes as blanks than these)."""
    while pos < end and _blank(buf[pos]):
        pos += 1
    if pos >= end:
        return -1, pos
    start = pos
    while pos < end and not _blank(buf[pos]):
        b = buf[pos]
        if not (48 <= b <= 57 or 65 <= b <= 90 or 97 <= b <= 122):
            return -2, pos
        pos += 1
    return start, pos


@kernel
def _pair_counts(play, n, code, counts, seen):
    """counts[code] = pairs at that code (two identical cards); returns the number of pairs."""
    pairs = 0
    for i in range(n):
        seen[play[i]] += 1
    for i in range(n):
        c = play[i]
        if seen[c] >= 2:
            counts[code[c]] += seen[c] // 2
            pairs += seen[c] // 2
        seen[c] = 0
    return pairs


@kernel
def _group(play, n, code):
    g = code[play[0]] >> 4
    for i in range(1, n):
        if code[play[i]] >> 4 != g:
            return -1
    return g


@kernel
def _fits_block(counts, length, top):
    if top - length + 1 < 0:
        return False
    for i in range(length):
        if counts[top - i] <= 0:
            return False
    return True


@kernel
def _take(counts, length, top, delta):
    for i in range(length):
        counts[top - i] += delta


@kernel
def _fits_rest(counts, lengths, k, nb, tops, chosen):
    """Can blocks k..nb-1 be cut from the pairs in counts, disjointly (tricks._fits)?"""
    if k >= nb:
        return True
    d = k
    tops[d] = CODES - 1
    while True:
        if d >= nb:
            ok = True
            break
        if lengths[d] == 1:  # only single pairs left: any pairs will do
            total = 0
            for c in range(CODES):
                total += counts[c]
            if total >= nb - d:
                ok = True
                break
            found = False
        else:
            found = False
            t = tops[d]
            while t >= 0:
                if _fits_block(counts, lengths[d], t):
                    found = True
                    break
                t -= 1
            if found:
                _take(counts, lengths[d], t, -1)
                chosen[d] = t
                tops[d] = t - 1
                d += 1
                if d < nb:
                    tops[d] = CODES - 1
                continue
        # backtrack
        ok = False
        d -= 1
        if d < k:
            break
        _take(counts, lengths[d], chosen[d], 1)
    # undo what is still taken
    for j in range(k, min(d, nb)):
        if lengths[j] > 1:
            _take(counts, lengths[j], chosen[j], 1)
    return ok


@kernel
def _decompose(counts, lengths, tops_out):
    """Blocks of the lead, longest first, higher first (tricks.decompose); returns how many.
    Consumes counts."""
    nb = 0
    while True:
        best_len, best_top = 0, -1
        run = 0
        prev = -2
        for c in range(CODES):
            if counts[c] > 0:
                run = run + 1 if c == prev + 1 else 1
                prev = c
                if run >= best_len:
                    best_len, best_top = run, c
        if best_len == 0:
            return nb
        lengths[nb] = best_len
        tops_out[nb] = best_top
        nb += 1
        _take(counts, best_len, best_top, -1)


@kernel
def _trick(plays, n, code, work):
    """(winner position, lead width) of one trick, or (-1, 0) for a lead mixing groups."""
    counts, seen, lengths, btops, tops, chosen = work
    lead = plays[0]
    group = _group(lead, n, code)
    if group < 0:
        return -1, 0
    counts[:] = 0
    pairs = _pair_counts(lead, n, code, counts, seen)
    nb = _decompose(counts, lengths, btops)
    if nb > 0:
        best = btops[0]
    else:
        best = 0
        for i in range(n):
            best = max(best, code[lead[i]])
    throw = nb + (n - 2 * pairs) > 1
    width = 2 * lengths[0] if nb > 0 else 1
    winner = 0
    for pos in range(1, 4):
        play = plays[pos]
        g = _group(play, n, code)
        if g < 0:
            continue
        if throw:
            if group == _TRUMP or g != _TRUMP:
                continue
        elif g != group and g != _TRUMP:
            continue
        honour = -1
        if nb == 0:
            for i in range(n):
                honour = max(honour, code[play[i]])
        else:
            counts[:] = 0
            if _pair_counts(play, n, code, counts, seen) == 0:
                continue
            t = CODES - 1
            while t >= 0:
                if _fits_block(counts, lengths[0], t):
                    _take(counts, lengths[0], t, -1)
                    ok = _fits_rest(counts, lengths, 1, nb, tops, chosen)
                    _take(counts, lengths[0], t, 1)
                    if ok:
                        honour = t
                        break
                t -= 1
        if honour > best:
            best, winner = honour, pos
    return winner, width


@kernel
def _write_int(out, at, value):
    if value < 0:
        out[at] = 45
        at += 1
        value = -value
    digits = np.empty(20, np.uint8)
    k = 0
    while True:
        digits[k] = 48 + value % 10
        value //= 10
        k += 1
        if value == 0:
            break
    for i in range(k):
        out[at + i] = digits[k - 1 - i]
    return at + k


@kernel
def _write_text(out, at, text):
    for i in range(text.shape[0]):
        out[at + i] = text[i]
    return at + text.shape[0]


@kernel
def _is(buf, start, stop, word):
    if stop - start != word.shape[0]:
        return False
    for i in range(word.shape[0]):
        if buf[start + i] != word[i]:
            return False
    return True


@kernel
def simulate_chunk(buf, pos, end, final, case, last_case, codes, cards, points, words, out):
    """Simulate cases case..last_case from buf[pos:end], writing their output into `out`.

    Returns (pos, case, out_len, status): the position and number of the first case not done,
    the output bytes written, and DONE (all cases done), MORE (the buffer ended inside a case
    and more input may come) or FALLBACK (the case at pos needs the pure-Python simulator).
    `words`: the byte spellings of what the output and header use (see fast.py)."""
    main_letters, rank_letters, seat_words, case_word, winner_word = words
    plays = np.empty((4, _MAX), np.int64)
    copies = np.zeros(CARD_IDS, np.int64)
    work = (np.zeros(CODES, np.int64), np.zeros(CARD_IDS, np.int64), np.zeros(_MAX, np.int64),
            np.zeros(_MAX, np.int64), np.zeros(_MAX, np.int64), np.zeros(_MAX, np.int64))
    o = 0
    while case <= last_case:
        start = pos
        status = DONE
        # header: main dealer cr1 cr2
        fields = np.empty(4, np.int64)
        for f in range(4):
            a, pos = _token(buf, pos, end)
            if a < 0:
                status = MORE if (a == -1 and not final) else FALLBACK
                break
            fields[f] = -1
            if f == 1:
                for s in range(4):
                    if _is(buf, a, pos, seat_words[s]):
                        fields[f] = s
            elif pos - a == 1:
                letters = main_letters if f == 0 else rank_letters
                for k in range(letters.shape[0]):
                    if buf[a] == letters[k]:
                        fields[f] = k
            if fields[f] < 0:
                status = FALLBACK
                break
        if status != DONE:
            return start, case, o, status
        main, dealer, cr1, cr2 = fields[0], fields[1], fields[2], fields[3]
        ct_team = 1 + dealer % 2
        code = codes[main, cr1 if ct_team == 1 else cr2]
        copies[:] = 0
        leader = dealer
        played = trick_points = played_points = 0
        width = 1
        while played < _MAX and status == DONE:
            n = -1
            for seat in range(4):
                a, pos = _token(buf, pos, end)
                if a < 0:
                    status = MORE if (a == -1 and not final) else FALLBACK
                    break
                size = pos - a
                if size % 2 or (n >= 0 and size // 2 != n):
                    status = FALLBACK
                    break
                n = size // 2
                if played + n > _MAX:
                    status = FALLBACK
                    break
                for i in range(n):
                    b0, b1 = buf[a + 2 * i], buf[a + 2 * i + 1]
                    card = cards[b0, b1] if b0 < 128 and b1 < 128 else -1
                    if card < 0:
                        status = FALLBACK
                        break
                    copies[card] += 1
                    if copies[card] > 2:
                        status = FALLBACK
                        break
                    plays[seat, i] = card
                if status != DONE:
                    break
            if status != DONE:
                break
            pos_in_trick, width = _trick(plays, n, code, work)
            if pos_in_trick < 0:
                status = FALLBACK
                break
            pts = 0
            for seat in range(4):
                for i in range(n):
                    pts += points[plays[seat, i]]
            winner = (leader + pos_in_trick) % 4
            played_points += pts
            if 1 + winner % 2 != ct_team:
                trick_points += pts
            leader = winner
            played += n
        if status != DONE:
            return start, case, o, status
        # settle (tricks.settle)
        hidden = 200 - played_points
        multiplier = 2 ** width if 1 + leader % 2 != ct_team else 0
        ft = trick_points + hidden * multiplier
        if ft == 0:
            ct_gain, ft_gain = 3, 0
        elif ft < 40:
            ct_gain, ft_gain = 2, 0
        elif ft < 80:
            ct_gain, ft_gain = 1, 0
        else:
            ct_gain, ft_gain = 0, (ft - 80) // 40
        new1 = cr1 + (ct_gain if ct_team == 1 else ft_gain)
        new2 = cr2 + (ft_gain if ct_team == 1 else ct_gain)
        next_dealer = (dealer + 1) % 4 if ft >= 80 else (dealer + 2) % 4
        o = _write_text(out, o, case_word)
        o = _write_int(out, o, case)
        out[o] = 58  # ':'
        out[o + 1] = 10
        o = _write_int(out, o + 2, ft)
        out[o] = 10
        o += 1
        if new1 > 12 or new2 > 12:
            o = _write_text(out, o, winner_word)
            out[o] = 49 if new1 > 12 else 50
            o += 1
        else:
            out[o] = rank_letters[new1]
            out[o + 1] = 32
            out[o + 2] = rank_letters[new2]
            out[o + 3] = 32
            o = _write_text(out, o + 4, seat_words[next_dealer])
        out[o] = 10
        o += 1
        case += 1
    return pos, case, o, DONE
