# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Arrays without numpy: `Buffer`, a typed block of memory with a shape, exported through the
buffer protocol.  ``numpy.asarray(buffer)`` and ``memoryview(buffer)`` take it without a copy;
``buffer.tolist()`` needs neither.  Observations (Board.planes), action masks and the results
of shashki.playouts are Buffers, so numpy stays an optional dependency.

A Buffer is a read-only sequence too (collections.abc.Sequence): ``len``, iteration, ``in``,
``index``, ``count``, and ``buffer[i]`` with ``i`` from ``-len`` to ``len - 1``, an item (an
int or a float) of a 1-D Buffer, a row (a Buffer of the other dimensions) of a larger one;
``buffer[a:b:c]`` is a Buffer of those rows.  The rows and slices are copies (as a list's
slices are): ``numpy.asarray`` is the view.
"""

from collections.abc import Sequence

from ..errors import InvalidBufferError

from cpython.buffer cimport PyBUF_FORMAT, PyBUF_ND, PyBUF_STRIDES, PyBUF_WRITABLE
from cpython.mem cimport PyMem_RawCalloc, PyMem_RawFree
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy

cdef extern from "Python.h":
    const Py_ssize_t PY_SSIZE_T_MAX

# the formats Buffers hold, and their item sizes (the struct module's standard sizes match
# the native ones for these on every platform CPython supports)
cdef dict ITEMSIZES = {"B": 1, "b": 1, "i": 4, "f": 4, "q": 8, "Q": 8}


cdef Buffer shaped(str fmt, int ndim, Py_ssize_t d0, Py_ssize_t d1, Py_ssize_t d2):
    # a Buffer's shape and format, without its memory
    cdef Buffer b = Buffer.__new__(Buffer)
    cdef Py_ssize_t dims[3]
    cdef int i
    if fmt not in ITEMSIZES:
        raise ValueError(f"unsupported buffer format {fmt!r}")
    if not 1 <= ndim <= 3:
        raise ValueError("a Buffer has 1 to 3 dimensions")
    dims[0] = d0
    dims[1] = d1
    dims[2] = d2
    b.itemsize = ITEMSIZES[fmt]
    b.fmt[0] = <char>ord(fmt)
    b.fmt[1] = 0
    b.nd = ndim
    b.size = b.itemsize
    for i in range(ndim):
        if dims[i] < 0:
            raise ValueError("a Buffer's dimensions are >= 0")
        if dims[i] and b.size > PY_SSIZE_T_MAX // dims[i]:
            # (the product wrapped round: (2**32, 2**32) made a Buffer of 0 bytes, and its
            # items were read far past it; issue 30.2c)
            raise ValueError(f"a Buffer of shape {tuple([dims[k] for k in range(ndim)])} "
                             f"would not fit in memory")
        b.dims[i] = dims[i]
        b.size *= dims[i]
    # C order: the last dimension is contiguous
    b.steps[ndim - 1] = b.itemsize
    for i in range(ndim - 2, -1, -1):
        b.steps[i] = b.steps[i + 1] * b.dims[i + 1]
    return b


cdef Buffer new_buffer(str fmt, int ndim, Py_ssize_t d0, Py_ssize_t d1=1, Py_ssize_t d2=1):
    cdef Buffer b = shaped(fmt, ndim, d0, d1, d2)
    # one byte at least, so that an empty Buffer still has a valid pointer to export
    b.data = <char *>PyMem_RawCalloc(b.size if b.size else 1, 1)
    if b.data == NULL:
        raise MemoryError()
    return b


cdef Buffer adopt_buffer(void *data, str fmt, int ndim, Py_ssize_t d0, Py_ssize_t d1=1,
                         Py_ssize_t d2=1):
    cdef Buffer b = shaped(fmt, ndim, d0, d1, d2)
    b.data = <char *>data
    return b


cdef class Buffer:
    """A typed array: `shape`, `format` (a struct-module character: "f" float32, "B" uint8,
    "b" int8, "i" int32, "q" int64, "Q" uint64), exported through the buffer protocol.

    >>> import shashki
    >>> mask = shashki.Board("english").legal_action_mask()
    >>> mask.shape, mask.format, sum(mask.tolist())
    ((1535,), 'B', 7)
    """

    def __cinit__(self):
        self.data = NULL
        self.exports = 0
        self.readonly = False

    def __dealloc__(self):
        PyMem_RawFree(self.data)

    def __init__(self, *args, **kwargs):
        raise TypeError("Buffers are made by shashki (Board.planes, legal_action_mask, "
                        "playouts), not directly")

    def __getbuffer__(self, Py_buffer *view, int flags):
        if self.readonly and flags & PyBUF_WRITABLE:
            # (a Buffer that C code owns, such as a VectorEnv's: numpy cannot make a view of
            # it writeable, setflags(write=True) included; issue 30.13)
            raise BufferError("this Buffer is read-only")
        view.buf = self.data
        view.obj = self
        view.len = self.size
        view.readonly = self.readonly
        view.itemsize = self.itemsize
        view.format = NULL
        if flags & PyBUF_FORMAT:
            view.format = &self.fmt[0]
        view.ndim = self.nd
        view.shape = self.dims if flags & PyBUF_ND else NULL
        view.strides = self.steps if flags & PyBUF_STRIDES == PyBUF_STRIDES else NULL
        view.suboffsets = NULL
        view.internal = NULL
        self.exports += 1

    def __releasebuffer__(self, Py_buffer *view):
        self.exports -= 1

    @property
    def shape(self):
        return tuple([self.dims[i] for i in range(self.nd)])

    @property
    def format(self):
        return chr(self.fmt[0])

    @property
    def ndim(self):
        return self.nd

    @property
    def nbytes(self):
        return self.size

    def __len__(self):
        return self.dims[0]

    cdef object item(self, Py_ssize_t offset):
        # the item at byte `offset` as a Python number
        cdef char *p = self.data + offset
        cdef char f = self.fmt[0]
        if f == b"B":
            return (<uint8_t *>p)[0]
        if f == b"b":
            return (<int8_t *>p)[0]
        if f == b"i":
            return (<int32_t *>p)[0]
        if f == b"f":
            return <double>(<float *>p)[0]
        if f == b"q":
            return (<int64_t *>p)[0]
        return (<uint64_t *>p)[0]

    cdef Buffer rows(self, Py_ssize_t start, Py_ssize_t step, Py_ssize_t count, int nd):
        # a new Buffer of `count` rows from `start`, `step` apart; of the dimensions after the
        # first when `nd` is one less than the Buffer's (a single row)
        cdef Py_ssize_t k, row = self.steps[0]
        cdef Buffer out
        if nd == self.nd:
            out = new_buffer(self.format, nd, count,
                             self.dims[1] if nd > 1 else 1, self.dims[2] if nd > 2 else 1)
        else:
            out = new_buffer(self.format, nd, self.dims[1], self.dims[2] if nd > 1 else 1)
        if step == 1 and count:
            memcpy(out.data, self.data + start * row, count * row)
        else:
            for k in range(count):
                memcpy(out.data + k * row, self.data + (start + k * step) * row, row)
        return out

    def __getitem__(self, index):
        """An item (1-D) or a row (a Buffer) for an int, a Buffer of rows for a slice."""
        cdef Py_ssize_t i, n = self.dims[0]
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            return self.rows(start, step, len(range(start, stop, step)), self.nd)
        try:
            i = index.__index__()
        except AttributeError:
            raise TypeError(f"Buffer indices are ints or slices, not "
                            f"{type(index).__name__}") from None
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"index {index} is out of range for a Buffer of {n} "
                             f"{'items' if self.nd == 1 else 'rows'}")
        if self.nd == 1:
            return self.item(i * self.steps[0])
        return self.rows(i, 1, 1, self.nd - 1)

    def __iter__(self):
        cdef Py_ssize_t i
        for i in range(self.dims[0]):
            yield self[i]

    def __reversed__(self):
        cdef Py_ssize_t i
        for i in range(self.dims[0] - 1, -1, -1):
            yield self[i]

    def __contains__(self, value):
        return any(item == value for item in self)

    def index(self, value, start=0, stop=None):
        """The first index of `value` (ValueError when it is not there), as list.index."""
        for i in range(*slice(start, stop).indices(self.dims[0])):
            if self[i] == value:
                return i
        raise ValueError(f"{value!r} is not in the Buffer")

    def count(self, value):
        """How many items (rows) equal `value`."""
        return sum(1 for item in self if item == value)

    def tolist(self):
        """The items as (nested) lists of Python numbers."""
        return memoryview(self).tolist()

    def tobytes(self):
        return memoryview(self).tobytes()

    def __eq__(self, other):
        if not isinstance(other, Buffer):
            return NotImplemented
        return self.shape == other.shape and self.format == other.format and \
            self.tobytes() == other.tobytes()

    def __repr__(self):
        return f"<shashki Buffer {self.format!r} shape={self.shape}>"

    def __reduce__(self):
        return (_rebuild, (self.format, self.shape, self.tobytes()))


def from_bytes(str fmt, tuple shape, bytes data):
    """A Buffer of format `fmt` and `shape` (1 to 3 dimensions) holding a copy of `data`,
    items in C order and native byte order (as struct.pack writes them).  InvalidBufferError
    (a ValueError) for a format, shape or data that do not fit."""
    if len(shape) not in (1, 2, 3) or any(isinstance(d, bool) or not isinstance(d, int) or
                                          not 0 <= d <= PY_SSIZE_T_MAX for d in shape):
        raise InvalidBufferError(f"a Buffer's shape is 1 to 3 whole numbers >= 0, not "
                                 f"{shape!r}"[:200])
    dims = list(shape) + [1] * (3 - len(shape))
    cdef Buffer b
    try:
        b = shaped(fmt, len(shape), dims[0], dims[1], dims[2])
    except InvalidBufferError:
        raise
    except ValueError as error:
        raise InvalidBufferError(str(error)) from None
    if len(data) != b.size:
        raise InvalidBufferError(f"{len(data)} bytes do not fit a Buffer of format {fmt!r} "
                                 f"and shape {shape!r} ({b.size} bytes)")
    b.data = <char *>PyMem_RawCalloc(b.size if b.size else 1, 1)
    if b.data == NULL:
        raise MemoryError()
    if b.size:
        memcpy(b.data, <char *>data, b.size)
    return b


def _rebuild(fmt, shape, data):
    # (unpickling; pickles name this function, and a pickle may be crafted: everything is
    # checked, InvalidBufferError for what does not fit)
    if not isinstance(fmt, str) or not isinstance(shape, tuple) or not isinstance(data, bytes):
        raise InvalidBufferError("a pickled Buffer is a format (str), a shape (tuple) and its "
                                 "data (bytes)")
    return from_bytes(fmt, shape, data)


Sequence.register(Buffer)
