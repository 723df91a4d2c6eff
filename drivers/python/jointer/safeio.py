# SPDX-License-Identifier: MIT
"""Every file the host tools read or write goes through here.

Inputs (open_input, read_text): opened with O_NONBLOCK (a FIFO without a
writer does not hang the open) and accepted only when fstat says a regular
file: a directory, a FIFO, a socket or a device is one clear error, so are a
file above the size limit and text that is not UTF-8 (with its byte offset).

Outputs (Output), as careful tools write them:
  - a regular file (or a path that does not exist yet): written to a
    temporary file in the same directory, then renamed over it (its mode
    and, where allowed, owner kept): readers see the old file or the whole
    new one;
  - a symbolic link to a regular file: the same on the link's target (the
    link stays a link);
  - an existing file that is not regular (a device such as /dev/null, a
    FIFO, or a link to one): written in place, never replaced; a FIFO
    without a reader is an error, not a hang;
  - the same file (device and inode) as one of the inputs: refused;
  - on any error: the temporary file is removed, the target is untouched.
"""
import errno as E
import os
import stat
import tempfile

from .errors import JointerError

TEXT_LIMIT = 256 << 20      # bytes of a text input (CSV, JSON, symbol file)


def _kind(mode):
    for test, what in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device")):
        if test(mode):
            return what
    return "not a regular file"


def open_input(path, what="input file"):
    """A read-only fd of path, a regular file; JointerError otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        try:
            mode = os.stat(path).st_mode            # a socket cannot be opened: say what it is
        except OSError:
            mode = stat.S_IFREG
        if not stat.S_ISREG(mode):
            raise JointerError(E.EINVAL, "%s: %s, not a regular file (expected %s)" % (path, _kind(mode), what)) \
                from None
        raise JointerError(e.errno or E.EIO, "%s: cannot open: %s" % (path, e.strerror)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise JointerError(E.EINVAL, "%s: %s, not a regular file (expected %s)" % (path, _kind(st.st_mode), what))
        os.set_blocking(fd, True)
        return fd
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path, what="input file", limit=TEXT_LIMIT):
    fd = open_input(path, what)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise JointerError(E.EFBIG, "%s: %d bytes, more than the %d MB a %s may have"
                               % (path, size, limit >> 20, what))
        chunks, n = [], 0
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            n += len(b)
            if n > limit:
                raise JointerError(E.EFBIG, "%s: more than the %d MB a %s may have" % (path, limit >> 20, what))
            chunks.append(b)
        return b"".join(chunks)
    except OSError as e:
        if isinstance(e, JointerError):
            raise
        raise JointerError(e.errno or E.EIO, "%s: cannot read: %s" % (path, e.strerror)) from None
    finally:
        os.close(fd)


def read_text(path, what="text file", limit=TEXT_LIMIT):
    """The UTF-8 text of a regular file; JointerError names the byte offset of bad bytes."""
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise JointerError(E.EILSEQ, "%s:%d: byte offset %d: not UTF-8 text (expected %s)"
                           % (path, line, e.start, what)) from None


def _same_file(st, inputs):
    for p in inputs:
        try:
            si = os.stat(p)
        except OSError:
            continue
        if (si.st_dev, si.st_ino) == (st.st_dev, st.st_ino):
            return p
    return None


class Output:
    """with Output(path, inputs) as f: f.write(...) -- f a binary file object
    (f.fileno() for C writers); replaced or written in place as above."""

    def __init__(self, path, inputs=()):
        self.path = path
        self.inputs = list(inputs)
        self.tmp = None
        self.target = None
        self.file = None

    def _fail(self, e, what="cannot write"):
        return JointerError(e.errno or E.EIO, "%s: %s: %s" % (self.path, what, e.strerror or e))

    def _in_place(self, st):
        if stat.S_ISDIR(st.st_mode):
            raise JointerError(E.EISDIR, "%s: a directory, not an output file" % self.path)
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError as e:
            if e.errno == E.ENXIO:
                raise JointerError(E.ENXIO, "%s: a FIFO without a reader" % self.path) from None
            raise self._fail(e) from None
        os.set_blocking(fd, True)
        return fd

    def _temporary(self, st):
        self.target = os.path.realpath(self.path)     # a link to a regular file: its target is replaced
        d, base = os.path.split(self.target)
        try:
            fd, self.tmp = tempfile.mkstemp(prefix="." + base + ".", suffix=".tmp", dir=d or ".")
        except OSError as e:
            raise self._fail(e) from None
        if st is not None:
            mode = stat.S_IMODE(st.st_mode)
            try:
                os.fchown(fd, st.st_uid, st.st_gid)   # the replaced file's owner, where allowed
            except OSError:
                pass
        else:
            mask = os.umask(0)
            os.umask(mask)
            mode = 0o666 & ~mask
        os.fchmod(fd, mode)
        return fd

    def __enter__(self):
        try:
            st = os.stat(self.path)                   # follows links
        except FileNotFoundError:
            st = None
        except OSError as e:
            raise self._fail(e) from None
        if st is not None:
            same = _same_file(st, self.inputs)
            if same is not None:
                raise JointerError(E.EINVAL, "%s: the output is the input %s: refused (it would destroy it)"
                                   % (self.path, same))
        fd = self._temporary(st) if st is None or stat.S_ISREG(st.st_mode) else self._in_place(st)
        self.file = os.fdopen(fd, "wb", buffering=1 << 20)
        return self.file

    def __exit__(self, typ, val, tb):
        try:
            if typ is None:
                self.file.flush()     # no fsync: the rename is atomic; durability is the filesystem's (as sort -o)
            self.file.close()
        except OSError as e:
            self._discard()
            raise self._fail(e) from None
        except BaseException:
            self._discard()
            raise
        if typ is not None:
            self._discard()
            return False
        if self.tmp is not None:
            try:
                os.replace(self.tmp, self.target)
            except OSError as e:
                self._discard()
                raise self._fail(e) from None
            self.tmp = None
        return False

    def _discard(self):
        if self.file is not None and not self.file.closed:
            try:
                self.file.close()
            except OSError:
                pass
        if self.tmp is not None:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None
