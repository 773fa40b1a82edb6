# A typed block of memory that Python sees through the buffer protocol (PEP 3118):
# numpy.asarray(buffer) and memoryview(buffer) take it without a copy, and numpy is never
# imported by shashki itself.

cdef class Buffer:
    cdef char *data
    cdef Py_ssize_t size            # bytes
    cdef Py_ssize_t itemsize
    cdef int nd
    cdef Py_ssize_t dims[3]
    cdef Py_ssize_t steps[3]        # strides
    cdef char fmt[2]                # the struct module's format character, e.g. "f"
    cdef int exports                # buffers handed out and not yet released
    cdef bint readonly              # exported read-only (writes come from C alone)

    cdef object item(self, Py_ssize_t offset)
    cdef Buffer rows(self, Py_ssize_t start, Py_ssize_t step, Py_ssize_t count, int nd)


# (The memory of every Buffer comes from PyMem_RawCalloc and goes back by PyMem_RawFree: the
# raw domain, which needs no GIL, so that C loops may allocate what a Buffer then adopts.)
# A zeroed Buffer of items of format `fmt` (one struct-module character) and `ndim` (1-3)
# dimensions; the unused trailing ones are ignored.
cdef Buffer new_buffer(str fmt, int ndim, Py_ssize_t d0, Py_ssize_t d1=*, Py_ssize_t d2=*)

# A Buffer that takes over `data`, a block of at least its size from PyMem_RawMalloc (or
# RawCalloc, RawRealloc; not NULL): it frees it.  No copy of what a C loop has written.
cdef Buffer adopt_buffer(void *data, str fmt, int ndim, Py_ssize_t d0, Py_ssize_t d1=*,
                         Py_ssize_t d2=*)
