# Bit helpers of the core, inline C: a holding is a rank mask (bit r for rank r), and
# these are the operations the search does most.  hibit/lobit need a non-zero argument.
# Also the table's allocator (huge pages on Linux).  Nothing here knows about bridge.
# gcc and clang use their builtins, MSVC its intrinsics (the same instructions).

from libc.stdint cimport uint16_t, uint32_t

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
       x86-64 with gcc or clang one compiled with -mbmi -mbmi2 -mlzcnt -mavx2, which
       defines DD_BMI2_BUILD.  dd_cpu_has_bmi2() tells the portable one whether the CPU it
       runs on could run the other (it is called only there). */
    #ifndef DD_BMI2_BUILD
    #define DD_BMI2_BUILD 0
    #endif
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    #include <cpuid.h>
    static int dd_cpu_has_bmi2(void) {
        unsigned int a, b, c, d;
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("bmi") || !__builtin_cpu_supports("bmi2")
                || !__builtin_cpu_supports("avx2"))
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

    /* The table's match of one block (TT_BLOCK = 8 entries stored suit by suit, see
       TTBlock in _core.pxd) against a position: bit i set when entry i's significant top
       cards (k per suit, 4 bits a suit in tops[i]) have the owners the position's p_s
       gives them.  The top k cards of a 26-bit owner sequence are its bits 25..26-2k:
       (~0 << (32 - 2k)) >> 6, none for k = 0 (dd_tt_top; the store masks with it too).  Only entries below n count.  AVX2: the
       eight entries a suit at once (a variable shift by 32 gives 0, as k = 0 wants). */
    #include <stdint.h>
    static inline uint32_t dd_tt_top(unsigned int k) {
        return (uint32_t)(0xFFFFFFFFull << (32 - 2 * k)) >> 6; }
    #if defined(__AVX2__)
    #include <immintrin.h>
    static inline __m256i dd_tt_suit(__m256i k, uint32_t p, const uint32_t *seq) {
        __m256i count = _mm256_sub_epi32(_mm256_set1_epi32(32), _mm256_add_epi32(k, k));
        __m256i mask = _mm256_srli_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(-1), count), 6);
        return _mm256_xor_si256(_mm256_and_si256(_mm256_set1_epi32((int)p), mask),
                                _mm256_loadu_si256((const __m256i *)seq));
    }
    static inline unsigned int dd_tt_match(const uint32_t *seq, const uint16_t *tops,
                                           uint32_t p0, uint32_t p1, uint32_t p2, uint32_t p3,
                                           unsigned int n) {
        __m256i t = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)tops));
        __m256i f = _mm256_set1_epi32(15);
        __m256i x = _mm256_or_si256(
            _mm256_or_si256(dd_tt_suit(_mm256_and_si256(t, f), p0, seq),
                            dd_tt_suit(_mm256_and_si256(_mm256_srli_epi32(t, 4), f), p1, seq + 8)),
            _mm256_or_si256(dd_tt_suit(_mm256_and_si256(_mm256_srli_epi32(t, 8), f), p2, seq + 16),
                            dd_tt_suit(_mm256_srli_epi32(t, 12), p3, seq + 24)));
        unsigned int eq = (unsigned int)_mm256_movemask_ps(
            _mm256_castsi256_ps(_mm256_cmpeq_epi32(x, _mm256_setzero_si256())));
        return eq & ((1u << n) - 1);
    }
    #else
    static inline unsigned int dd_tt_match(const uint32_t *seq, const uint16_t *tops,
                                           uint32_t p0, uint32_t p1, uint32_t p2, uint32_t p3,
                                           unsigned int n) {
        unsigned int i, t, m = 0;
        for (i = 0; i < n; i++) {
            t = tops[i];
            m |= (unsigned int)((((p0 & dd_tt_top(t & 15)) ^ seq[i])
                                 | ((p1 & dd_tt_top((t >> 4) & 15)) ^ seq[8 + i])
                                 | ((p2 & dd_tt_top((t >> 8) & 15)) ^ seq[16 + i])
                                 | ((p3 & dd_tt_top(t >> 12)) ^ seq[24 + i])) == 0) << i;
        }
        return m;
    }
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
    uint32_t dd_tt_top(unsigned int k) noexcept nogil
    unsigned int dd_tt_match(const uint32_t *seq, const uint16_t *tops, uint32_t p0, uint32_t p1,
                             uint32_t p2, uint32_t p3, unsigned int n) noexcept nogil
    void *dd_alloc_table(size_t n) noexcept nogil
    int DD_BMI2_BUILD
    int dd_cpu_has_bmi2() noexcept
