# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The core again, compiled for x86-64 CPUs with BMI1, BMI2 and LZCNT (Intel since 2013,
AMD since 2015).  Private: :mod:`ddsolver._core` imports it in place of its own code when
the CPU has those instructions (see the end of _core.pyx).

Same source, other instructions: shifts by a variable count (``1 << rank``, everywhere in
the search) without the flags dependency, and lzcnt/tzcnt for the highest and lowest card.
It searches the same tree as the portable build in less time (measured: see
bench/README.md, 'Ideas measured, kept and dropped').
"""

include "_core.pyx"
