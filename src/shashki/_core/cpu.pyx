# cython: language_level=3
"""What this CPU can run: the instruction sets the kernels are built for, read from CPUID.

A wheel's kernels come in two builds on x86-64 (setup.py, kernel_flavours): the x86-64
baseline, which runs on every x86-64 CPU, and x86-64-v2, which counts bits with POPCNT and is
20-30% faster in perft.  This module is compiled for the baseline alone, so that it can ask the
CPU before anything that needs more is loaded.
"""

import importlib
import os

cdef extern from *:
    """
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    #define SHASHKI_X86 1
    static int shashki_cpu_popcnt(void) { __builtin_cpu_init(); return __builtin_cpu_supports("popcnt"); }
    static int shashki_cpu_bmi2(void) { __builtin_cpu_init(); return __builtin_cpu_supports("bmi2"); }
    static int shashki_cpu_avx2(void) { __builtin_cpu_init(); return __builtin_cpu_supports("avx2"); }
    #elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    #include <intrin.h>
    #define SHASHKI_X86 1
    static int shashki_cpuid(int leaf, int sub, int reg, int bit) {
        int r[4];
        __cpuid(r, 0);
        if (r[0] < leaf) return 0;
        __cpuidex(r, leaf, sub);
        return (r[reg] >> bit) & 1;
    }
    static int shashki_cpu_popcnt(void) { return shashki_cpuid(1, 0, 2, 23); }
    static int shashki_cpu_bmi2(void) { return shashki_cpuid(7, 0, 1, 8); }
    /* AVX2 also needs the OS to save the YMM registers; only reported, never relied on */
    static int shashki_cpu_avx2(void) { return shashki_cpuid(7, 0, 1, 5); }
    #else
    #define SHASHKI_X86 0
    static int shashki_cpu_popcnt(void) { return 0; }
    static int shashki_cpu_bmi2(void) { return 0; }
    static int shashki_cpu_avx2(void) { return 0; }
    #endif
    """
    bint X86 "SHASHKI_X86"
    bint cpu_popcnt "shashki_cpu_popcnt"() noexcept nogil
    bint cpu_bmi2 "shashki_cpu_bmi2"() noexcept nogil
    bint cpu_avx2 "shashki_cpu_avx2"() noexcept nogil


def features():
    """The CPU's instruction sets that matter to shashki, as a dict of name -> bool (all False
    off x86)."""
    return {"popcnt": bool(cpu_popcnt()), "bmi2": bool(cpu_bmi2()), "avx2": bool(cpu_avx2())}


# the kernels' builds, fastest first: (name, subpackage of shashki._core.kernels, needs)
FLAVOURS = (("x86-64-v2", "x86_64_v2", "popcnt"), ("x86-64", "", None))


def _choose():
    """The build of the kernels this CPU runs: the fastest one that was built and that the CPU
    can run.  SHASHKI_KERNELS=x86-64 (or x86-64-v2) asks for one by name, to compare them."""
    wanted = os.environ.get("SHASHKI_KERNELS")
    # read before anything else, so that a name no build has is refused on every machine (it
    # was ignored off x86-64, issue 44): one build there, "generic"
    names = [f[0] for f in FLAVOURS] if X86 else ["generic"]
    if wanted is not None and wanted not in names:
        raise ValueError(f"SHASHKI_KERNELS={wanted!r}: expected one of {', '.join(names)}")
    if not X86:
        return "generic", ""
    have = features()
    for name, package, needs in FLAVOURS:
        if wanted not in (None, name) or (needs and not have[needs]):
            continue
        if package:
            try:
                importlib.import_module(f"shashki._core.kernels.{package}.russian")
            except ImportError:
                continue    # a build with one flavour only (SHASHKI_CFLAGS, a debug build)
        return name, package
    if wanted is not None:
        raise ValueError(f"SHASHKI_KERNELS={wanted!r}: this CPU cannot run that build")
    return "x86-64", ""


CODE_PATH, KERNEL_PACKAGE = _choose()
