# Bit helpers of the core, inline C: a holding is a rank mask (bit r for rank r), and
# these are the operations the search does most.  hibit/lobit need a non-zero argument.
# Also the table's allocator (huge pages on Linux).  Nothing here knows about bridge.

cdef extern from *:
    """
    static inline int dd_popcount(unsigned int x) { return __builtin_popcount(x); }
    static inline int dd_hibit(unsigned int x) { return 31 - __builtin_clz(x); }
    static inline int dd_lobit(unsigned int x) { return __builtin_ctz(x); }
    #define dd_prefetch(p) __builtin_prefetch((const void *)(p))

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
    void dd_prefetch(const void *p) noexcept nogil
    void *dd_alloc_table(size_t n) noexcept nogil
