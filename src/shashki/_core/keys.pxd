# The Zobrist keys of positions: one per (colour, man/king, bit), one for Black to move, and
# a mix of the kings' runs.  The search keys its table and its repetition test by them, and
# updates a key move by move (child_key); the tests check that against the key made afresh
# (_testing.pyx).  The table is C's, static: each module that cimports this file has its own
# copy, which init_keys() fills from a fixed seed at its import, so the keys are the same in
# every module and every process.

from libc.stdint cimport uint32_t
from .bits cimport u64, ctz
from .kernel cimport Pos, Move

cdef extern from *:
    """
    #include <stdint.h>
    static uint64_t shashki_zobrist[2][2][64];
    static uint64_t shashki_zside;
    """
    u64 ZOBRIST "shashki_zobrist"[2][2][64]
    u64 ZSIDE "shashki_zside"


cdef inline u64 splitmix64(u64 *state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef u64 z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void init_keys() noexcept nogil:
    global ZSIDE
    cdef u64 state = 0x53484153484B4921ULL
    cdef int c, k, s
    for c in range(2):
        for k in range(2):
            for s in range(64):
                ZOBRIST[c][k][s] = splitmix64(&state)
    ZSIDE = splitmix64(&state)


cdef inline u64 run_key(uint32_t run) noexcept nogil:
    # the kings' runs (frisian; 0 in the other games, whose keys they leave alone): a mix of
    # the two bytes, so that positions that differ only by them differ in the table and in the
    # repetition test
    cdef u64 h
    if not (run & 0xFFFF):
        return 0
    h = (<u64>(run & 0xFFFF)) * 0x9E3779B97F4A7C15ULL
    return h ^ (h >> 29) ^ 0x2545F4914F6CDD1DULL


cdef inline u64 zobrist(const Pos *p) noexcept nogil:
    cdef u64 key = ZSIDE if p.turn else 0
    cdef u64 b
    cdef int c, s
    for c in range(2):
        b = p.pieces[c]
        while b:
            s = ctz(b)
            b &= b - 1
            key ^= ZOBRIST[c][(p.kings >> s) & 1][s]
    return key ^ run_key(p.run)


cdef inline u64 key_after(u64 key, const Pos *p, const Move *m) noexcept nogil:
    cdef int us = p.turn
    cdef int them = us ^ 1
    cdef int was_king = (p.kings >> m.frm) & 1
    cdef u64 cap = m.captured
    cdef int s
    key ^= ZOBRIST[us][was_king][m.frm] ^ ZOBRIST[us][was_king | m.promote][m.to] ^ ZSIDE
    while cap:
        s = ctz(cap)
        cap &= cap - 1
        key ^= ZOBRIST[them][(p.kings >> s) & 1][s]
    return key


cdef inline u64 child_key(u64 key, const Pos *p, const Move *m, const Pos *child) noexcept nogil:
    # the key after m, the kings' runs included
    key = key_after(key, p, m)
    if p.run:       # (RUN_ON in every position of a game that counts its kings' runs)
        key ^= run_key(p.run) ^ run_key(child.run)
    return key
