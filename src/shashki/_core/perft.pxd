from .bits cimport u64
from .perft_table cimport PerftTable as Table


cdef class PerftTable:
    cdef Table t
    cdef char *locks
    cdef readonly u64 size_bytes
    cdef readonly str owner     # what the entries were counted for, set by the caller
