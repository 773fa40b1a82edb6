# Bitboards: the 64-bit word every board lives in (kernel.pxd lays out its squares) and the
# bit operations the core needs on it (count, lowest and highest bit, the r-th set bit, a
# mask from one numbering of the squares to another), each the fastest the CPU allows.  No
# type of the game is here: the kernels, the search and the learning surfaces all use them.

from libc.stdint cimport uint64_t

ctypedef uint64_t u64

cdef extern from *:
    """
    /* the bits of x counted without POPCNT (an x86-64 CPU before 2008 has none) */
    static CYTHON_INLINE int shashki_soft_popcount(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #if defined(_MSC_VER)
    #include <intrin.h>
    #if defined(__AVX__)
    static __inline int shashki_popcount(unsigned __int64 x) { return (int)__popcnt64(x); }
    #else
    static int shashki_popcnt_flag = -1;
    static __inline int shashki_popcount(unsigned __int64 x) {
        if (shashki_popcnt_flag < 0) { int r[4]; __cpuid(r, 1); shashki_popcnt_flag = (r[2] >> 23) & 1; }
        return shashki_popcnt_flag ? (int)__popcnt64(x) : shashki_soft_popcount(x);
    }
    #endif
    #define shashki_prefetch(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
    static __inline int shashki_ctz(unsigned __int64 x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    static __inline int shashki_msb(unsigned __int64 x) { unsigned long i; _BitScanReverse64(&i, x); return (int)i; }
    static __inline void shashki_lock(volatile char *l) { while (_InterlockedExchange8(l, 1)) { } }
    static __inline void shashki_unlock(volatile char *l) { _InterlockedExchange8(l, 0); }
    #else
    #if defined(__POPCNT__) || !defined(__x86_64__)
    #define shashki_popcount(x) __builtin_popcountll(x)
    #else
    /* x86-64 without -mpopcnt (every module but the x86-64-v2 kernels, so that a wheel runs on
       any x86-64 CPU): POPCNT where the CPU has it, read once when the module is loaded, else
       the count in software; the branch always goes the same way.  The kernels, where the
       count is hottest, have a POPCNT build of their own instead (shashki._core.cpu). */
    static int shashki_has_popcnt;
    __attribute__((constructor)) static void shashki_popcnt_init(void) {
        __builtin_cpu_init();
        shashki_has_popcnt = __builtin_cpu_supports("popcnt");
    }
    /* The asm statements here and below are volatile: GCC takes a plain asm for a pure
       expression and may run it ahead of the branch that guards it (it did: the search's
       if-converted popcounts ran POPCNT on a CPU without it, SIGILL under qemu64) */
    static inline int shashki_popcount(unsigned long long x) {
        if (__builtin_expect(shashki_has_popcnt, 1)) {
            unsigned long long out;
            __asm__ __volatile__("popcntq %1, %0" : "=r"(out) : "rm"(x));
            return (int)out;
        }
        return shashki_soft_popcount(x);
    }
    #endif
    #define shashki_prefetch(p) __builtin_prefetch((p))
    #define shashki_ctz(x) __builtin_ctzll(x)
    #define shashki_msb(x) (63 - __builtin_clzll(x))
    static inline void shashki_lock(volatile char *l) {
        while (__atomic_test_and_set((void *)l, __ATOMIC_ACQUIRE)) { }
    }
    static inline void shashki_unlock(volatile char *l) { __atomic_clear((void *)l, __ATOMIC_RELEASE); }
    #endif
    """
    void prefetch "shashki_prefetch"(const void *p) noexcept nogil
    int popcount "shashki_popcount"(u64 x) noexcept nogil
    int ctz "shashki_ctz"(u64 x) noexcept nogil    # x must not be 0
    int msb "shashki_msb"(u64 x) noexcept nogil    # the highest set bit; x must not be 0
    void lock "shashki_lock"(volatile char *l) noexcept nogil
    void unlock "shashki_unlock"(volatile char *l) noexcept nogil


cdef extern from *:
    """
    /* The r-th set bit of a mask in one instruction, PDEP, on the x86-64 processors that have it
       fast (Intel since Haswell, AMD since Zen 3; Zen 1 and 2 run it in microcode, slower than
       the portable halving), chosen at run time.  Inline assembly, so that it inlines into
       code compiled for any x86-64 (a function compiled for BMI2 alone would not). */
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    static inline unsigned long long shashki_pdep_bit(unsigned long long b, int r) {
        unsigned long long out;
        __asm__ __volatile__("pdepq %2, %1, %0" : "=r"(out) : "r"(1ULL << r), "rm"(b));
        return out;
    }
    /* PEXT, the bits of b under mask packed down (run as fast as PDEP on the same processors) */
    static inline unsigned long long shashki_pext(unsigned long long b, unsigned long long mask) {
        unsigned long long out;
        __asm__ __volatile__("pextq %2, %1, %0" : "=r"(out) : "r"(b), "rm"(mask));
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
    /* never called: fast_pdep() is 0.  Inline, as the x86 ones: a module that uses none of
       them compiles without "defined but not used" (issue 44) */
    static inline unsigned long long shashki_pdep_bit(unsigned long long b, int r) {
        (void)r;
        return b & (~b + 1);
    }
    static inline unsigned long long shashki_pext(unsigned long long b, unsigned long long mask) {
        (void)mask;
        return b;
    }
    static inline int shashki_fast_pdep(void) { return 0; }
    #endif
    """
    u64 pdep_bit "shashki_pdep_bit"(u64 b, int r) noexcept nogil
    u64 pext "shashki_pext"(u64 b, u64 mask) noexcept nogil    # only where fast_pdep()
    bint fast_pdep "shashki_fast_pdep"() noexcept nogil


cdef inline u64 scatter(u64 m, const int *to) noexcept nogil:
    """Bit s of `m` moved to bit to[s], for each s: a mask from one numbering of the squares to
    another (squares to ghost bits and back)."""
    cdef u64 out = 0
    cdef int s
    while m:
        s = ctz(m)
        m &= m - 1
        out |= (<u64>1) << to[s]
    return out


cdef inline u64 nth_bit(u64 b, int r, bint pdep) noexcept nogil:
    # the r-th set bit of b (r < popcount(b)): by PDEP where it is fast, else by halving without a
    # branch (r is random: a branch on it, or a loop of r steps, mispredicts about once a ply)
    cdef int at = 0
    cdef int c, half
    cdef u64 take
    if pdep:
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


cdef inline int random_below(u64 rnd, int n) noexcept nogil:
    # a uniform index below n (n <= 512) from a 64-bit random number: its high 32 bits scaled,
    # bias below n / 2**32
    return <int>(((rnd >> 32) * <u64>n) >> 32)
