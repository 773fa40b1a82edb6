# Moves drawn at random without listing them, for the playouts (playouts.pyx): a side's quiet
# moves counted by popcount and the drawn one made, and its capture test when it has no king.
# The rules they follow are the kernels' (kernel.pxi), read from the game's record into a
# Sampler; test_playouts holds both to the kernel on random positions of every game.

from libc.stdint cimport uint8_t
from .kernel cimport u64, WHITE, BLACK, Position, Move as KMove, KernelOps, popcount, ctz

ctypedef struct Sampler:
    const KernelOps *ops
    u64 board                   # the playable bits
    int width                   # squares per row
    bint flying                 # kings move any distance
    bint men_back               # men capture backward
    bint men_take_kings
    bint pdep                   # fast_pdep(): PDEP finds the r-th set bit


# --- a quiet move drawn without listing the moves ----------------------------------------------
# Most positions have no capture.  Listing their moves (the kernel's gen_moves) writes every
# move only for one to be kept; here the moves are counted by popcount and only the drawn one is
# made: a man's step, or a king's step at distance j along a direction (each destination square
# of the bit set "squares j steps from a king along d" is one move).  The moves are the kernel's
# quiet moves (men step forward, kings step, or fly over empty squares); test_playouts checks
# that every index gives a distinct legal move and that they are all of them, in every game.

# The board's width is a constant of the 8x8 games' code (a fused tag, as the kernels' Side):
# every shift is then by a literal, as in the kernels.
ctypedef struct Eight:
    char _
ctypedef struct AnyWidth:
    char _
ctypedef fused Geometry:
    Eight
    AnyWidth


cdef inline int width_of(Geometry *g, const Sampler *sp) noexcept nogil:
    return 4 if Geometry is Eight else sp.width


cdef inline u64 shift(Geometry *g, const Sampler *sp, u64 b, int d) noexcept nogil:
    # the kernels' directions: 0 north-east, 1 north-west, 2 south-east, 3 south-west
    if d == 0:
        return b << (width_of(g, sp) + 1)
    if d == 1:
        return b << width_of(g, sp)
    if d == 2:
        return b >> width_of(g, sp)
    return b >> (width_of(g, sp) + 1)


cdef extern from *:
    """
    /* The r-th set bit of a mask in one instruction, PDEP, on the x86-64 processors that have it
       fast (Intel since Haswell, AMD since Zen 3; Zen 1 and 2 run it in microcode, slower than
       the portable halving), chosen at run time.  Inline assembly, so that it inlines into
       code compiled for any x86-64 (a function compiled for BMI2 alone would not). */
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    static inline unsigned long long shashki_pdep_bit(unsigned long long b, int r) {
        unsigned long long out;
        __asm__("pdepq %2, %1, %0" : "=r"(out) : "r"(1ULL << r), "rm"(b));
        return out;
    }
    static int shashki_fast_pdep(void) {
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("bmi2")) return 0;
        if (__builtin_cpu_is("amd") && (__builtin_cpu_is("znver1") || __builtin_cpu_is("znver2")))
            return 0;
        return 1;
    }
    #else
    /* never called: fast_pdep() is 0 */
    static unsigned long long shashki_pdep_bit(unsigned long long b, int r) {
        (void)r;
        return b & (~b + 1);
    }
    static int shashki_fast_pdep(void) { return 0; }
    #endif
    """
    u64 pdep_bit "shashki_pdep_bit"(u64 b, int r) noexcept nogil
    bint fast_pdep "shashki_fast_pdep"() noexcept nogil

cdef inline u64 nth_bit(const Sampler *sp, u64 b, int r) noexcept nogil:
    # the r-th set bit of b (r < popcount(b)): by PDEP where it is fast, else by halving without a
    # branch (r is random: a branch on it, or a loop of r steps, mispredicts about once a ply)
    cdef int at = 0
    cdef int c, half
    cdef u64 take
    if sp.pdep:
        return pdep_bit(b, r)
    # halves of 32, 16, 8, 4, 2 bits (a loop of fixed count: the compiler unrolls it), then 1
    half = 32
    while half > 1:
        c = popcount(b & (((<u64>1) << half) - 1))
        take = -(<u64>(r >= c))
        r -= c & <int>take
        at += half & <int>take
        b >>= half & <int>take
        half >>= 1
    at += <int>(r >= <int>(b & 1))
    return (<u64>1) << at


ctypedef struct Quiet:
    u64 steps[2]                # the men's destinations in their two forward directions
    int count[2]
    int n                       # every quiet move, the kings' included


cdef inline void quiet_count(Geometry *g, const Sampler *sp, const Position *p,
                             Quiet *q) noexcept nogil:
    # the men's steps (scan() adds the kings' moves)
    cdef u64 own = p.pieces[p.turn]
    cdef u64 empty = sp.board & ~(p.pieces[0] | p.pieces[1])
    cdef u64 men = own & ~p.kings
    cdef int w = width_of(g, sp)
    # White's men step north-east (+w+1) and north-west (+w), Black's south-east (-w) and
    # south-west (-w-1); selected by a mask, not branched on, as the side changes every ply
    cdef u64 white = -(<u64>(p.turn == WHITE))
    q.steps[0] = (((men << (w + 1)) & white) | ((men >> w) & ~white)) & empty
    q.steps[1] = (((men << w) & white) | ((men >> (w + 1)) & ~white)) & empty
    q.count[0] = popcount(q.steps[0])
    q.count[1] = popcount(q.steps[1])
    q.n = q.count[0] + q.count[1]


cdef inline void set_quiet(const Sampler *sp, const Position *p, KMove *out, u64 frm,
                           u64 to, bint king) noexcept nogil:
    out.ft = frm | to
    out.kx = out.ft if king else to & sp.ops.promotion[p.turn]
    out.promote = not king and out.kx != 0
    out.captured = 0
    out.frm = <uint8_t>ctz(frm)
    out.to = <uint8_t>ctz(to)
    out.ncapt = 0


cdef inline void quiet_nth(Geometry *g, const Sampler *sp, const Position *p, const Quiet *q,
                           int r, KMove *out) noexcept nogil:
    """Quiet move r (0 <= r < q.n) into `out`: the men's steps in their two forward directions,
    then the kings' in the four, nearest squares first."""
    cdef u64 empty, x, to, frm, white
    cdef int d, c, i, steps, second, w = width_of(g, sp)
    if r < q.count[0] + q.count[1]:
        # a man's step: which direction, selected without a branch
        second = r >= q.count[0]
        to = nth_bit(sp, q.steps[second], r - (q.count[0] if second else 0))
        white = -(<u64>(p.turn == WHITE))
        frm = ((to >> (w + 1 - second)) & white) | ((to << (w + second)) & ~white)
        set_quiet(sp, p, out, frm, to, False)
        return
    r -= q.count[0] + q.count[1]
    empty = sp.board & ~(p.pieces[0] | p.pieces[1])
    for d in range(4):
        x = shift(g, sp, p.pieces[p.turn] & p.kings, d) & empty
        steps = 1
        while x:
            c = popcount(x)
            if r < c:
                to = nth_bit(sp, x, r)
                frm = to
                for i in range(steps):
                    frm = shift(g, sp, frm, 3 - d)
                set_quiet(sp, p, out, frm, to, True)
                return
            r -= c
            if not sp.flying:
                break
            x = shift(g, sp, x, d) & empty
            steps += 1


cdef inline bint men_capture(Geometry *g, const Sampler *sp, const Position *p) noexcept nogil:
    """Whether a man of the side to move can capture: a piece it may take next to it, with an
    empty square behind (the kernels' man_jumpers, bit-parallel)."""
    cdef u64 own = p.pieces[p.turn] & ~p.kings
    cdef u64 enemy = p.pieces[p.turn ^ 1]
    cdef u64 empty = sp.board & ~(p.pieces[0] | p.pieces[1])
    cdef u64 r = 0
    cdef int w = width_of(g, sp)
    if not sp.men_take_kings:
        enemy &= ~p.kings
    # the squares two steps back from an empty one over a jumpable piece, each direction
    if sp.men_back or p.turn == WHITE:
        r |= ((((empty >> (w + 1)) & enemy) >> (w + 1)) | (((empty >> w) & enemy) >> w))
    if sp.men_back or p.turn == BLACK:
        r |= ((((empty << w) & enemy) << w) | (((empty << (w + 1)) & enemy) << (w + 1)))
    return (r & own) != 0


cdef inline bint scan(Geometry *g, const Sampler *sp, const Position *p, Quiet *q) noexcept nogil:
    """Whether the side to move must capture; if not, its quiet moves counted into `q`.  The
    kings' rays are walked once for both: a ray's squares at distance j through empty squares
    are its quiet moves, and the piece that stops it is taken when it is an enemy with an empty
    square behind (the kernels' kings_can_capture).  test_playouts holds the answer to the
    kernel's must_capture on random positions of every game."""
    cdef u64 own = p.pieces[p.turn]
    cdef u64 empty = sp.board & ~(p.pieces[0] | p.pieces[1])
    cdef u64 enemy = p.pieces[p.turn ^ 1]
    cdef u64 kings = own & p.kings
    cdef u64 front, x
    cdef int d
    if men_capture(g, sp, p):
        return True
    quiet_count(g, sp, p, q)
    if kings:
        q.n = q.count[0] + q.count[1]
        for d in range(4):
            front = shift(g, sp, kings, d)
            while True:
                if shift(g, sp, front & enemy, d) & empty:
                    return True
                x = front & empty
                if not x:
                    break
                q.n += popcount(x)
                if not sp.flying:
                    break
                front = shift(g, sp, x, d)
    return False
