# Bit helpers of the core, inline C: a holding is a rank mask (bit r for rank r), and
# these are the operations the search does most.  hibit/lobit need a non-zero argument.
# Also the table's allocator (huge pages on Linux).  Nothing here knows about bridge.
# gcc and clang use their builtins, MSVC its intrinsics (the same instructions).

cdef extern from *:
    """
    /* The search's helpers are `cdef inline` so that each caller gets its own copy with
       its constants folded in: search_second, _third and _fourth each a specialised
       follow-search (try_moves, weigh_follow and the make/unmake of a card inlined with
       the stage of the trick known).  gcc and clang treat `inline` as a hint and, for
       functions this size, decline it, so insist.  This code comes before the module's
       own functions; Cython's runtime helpers defined later are inline too (harmless).
       The same tree is searched with fewer instructions, in less time (measured: see
       bench/README.md, 'Ideas measured, kept and dropped'). */
    #if defined(__GNUC__) || defined(__clang__)
    #undef CYTHON_INLINE
    #define CYTHON_INLINE __inline__ __attribute__((always_inline))
    #elif defined(_MSC_VER)
    #undef CYTHON_INLINE
    #define CYTHON_INLINE __forceinline
    #endif

    #if defined(_MSC_VER) && !defined(__clang__)
    /* MSVC (the Windows wheels) has no __builtin_*: its intrinsics do the same.  x64
       only: __popcnt is the POPCNT instruction, as -mpopcnt gives gcc. */
    #include <intrin.h>
    #include <xmmintrin.h>
    static __forceinline int dd_popcount(unsigned int x) { return (int)__popcnt(x); }
    static __forceinline int dd_hibit(unsigned int x) {
        unsigned long i; _BitScanReverse(&i, x); return (int)i; }
    static __forceinline int dd_lobit(unsigned int x) {
        unsigned long i; _BitScanForward(&i, x); return (int)i; }
    #define dd_prefetch(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
    #else
    static inline int dd_popcount(unsigned int x) { return __builtin_popcount(x); }
    static inline int dd_hibit(unsigned int x) { return 31 - __builtin_clz(x); }
    static inline int dd_lobit(unsigned int x) { return __builtin_ctz(x); }
    #define dd_prefetch(p) __builtin_prefetch((const void *)(p))
    #endif

    /* Two builds of the core come from one source (setup.py): the portable one, and on
       x86-64 with gcc or clang one compiled with -mbmi -mbmi2 -mlzcnt, which defines
       DD_BMI2_BUILD.  dd_cpu_has_bmi2() tells the portable one whether the CPU it runs on
       could run the other (it is called only there). */
    #ifndef DD_BMI2_BUILD
    #define DD_BMI2_BUILD 0
    #endif
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    #include <cpuid.h>
    static int dd_cpu_has_bmi2(void) {
        unsigned int a, b, c, d;
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("bmi") || !__builtin_cpu_supports("bmi2"))
            return 0;
        /* LZCNT (AMD's ABM): CPUID 0x80000001, ECX bit 5. */
        if (!__get_cpuid(0x80000001, &a, &b, &c, &d))
            return 0;
        return (c >> 5) & 1;
    }
    #else
    static int dd_cpu_has_bmi2(void) { return 0; }
    #endif

    /* The k-th highest set bit of m (k >= 1, m holding at least k bits), as a mask: one
       PDEP where the build has BMI2, else the top bits cleared one by one. */
    #if defined(__BMI2__)
    #include <immintrin.h>
    static inline unsigned int dd_kth_high(unsigned int m, int k) {
        return _pdep_u32(1u << (dd_popcount(m) - k), m); }
    #else
    static inline unsigned int dd_kth_high(unsigned int m, int k) {
        while (--k > 0) m ^= 1u << dd_hibit(m);
        return 1u << dd_hibit(m); }
    #endif

    #include <stdlib.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* Memory for the transposition table.  Its probes land anywhere in tens of MB, so
       with 4 KB pages nearly every one misses the TLB as well as the cache: on Linux,
       ask for transparent huge pages (2 MB aligned, madvise).  Free with free(). */
    static void *dd_alloc_table(size_t n) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        void *p = NULL;
        if (posix_memalign(&p, (size_t)1 << 21, n) != 0)
            return NULL;
        madvise(p, n, MADV_HUGEPAGE);
        return p;
    #else
        return malloc(n);
    #endif
    }
    """
    int dd_popcount(unsigned int x) noexcept nogil
    int dd_hibit(unsigned int x) noexcept nogil
    int dd_lobit(unsigned int x) noexcept nogil
    unsigned int dd_kth_high(unsigned int m, int k) noexcept nogil
    void dd_prefetch(const void *p) noexcept nogil
    void *dd_alloc_table(size_t n) noexcept nogil
    int DD_BMI2_BUILD
    int dd_cpu_has_bmi2() noexcept
