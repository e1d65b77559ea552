"""Errors of the tlcost package: libtlcost's typed errors as exceptions.

Every exception is a :class:`Error` carrying the library's stable
snake_case ``code`` (branch on it), the ``message`` naming the cause, a
``remedy`` that is never empty, and for input errors the ``file``,
``line`` and ``column``.  The subclass follows the library's return class
(``TLC_EIO`` -> :class:`FileError`, ``TLC_EPARSE`` -> :class:`ParseError`, ...).
"""

from typing import Optional


class Error(Exception):
    """A libtlcost failure or refusal (see docs/errors.md for the codes)."""

    klass = -1

    def __init__(self, code: str, message: str, remedy: str,
                 file: Optional[str] = None, line: int = 0, column: int = 0):
        super().__init__(code, message, remedy)
        self.code = code
        self.message = message
        self.remedy = remedy
        self.file = file
        self.line = line
        self.column = column

    @property
    def position(self) -> Optional[str]:
        """``file:line:column`` (as much as is known), or None."""
        if not self.file:
            return None
        if self.line and self.column:
            return "%s:%d:%d" % (self.file, self.line, self.column)
        if self.line:
            return "%s:%d" % (self.file, self.line)
        return self.file

    def __str__(self) -> str:
        where = self.position
        at = " (at %s)" % where if where else ""
        return "%s: %s%s; remedy: %s" % (self.code, self.message, at,
                                          self.remedy)


class OutOfMemoryError(Error, MemoryError):
    klass = -2


class FileError(Error, OSError):
    klass = -3


class InvalidArgumentError(Error, ValueError):
    klass = -4


class ParseError(Error, ValueError):
    klass = -5


class InputError(Error, ValueError):
    klass = -6


class VersionError(Error, ValueError):
    klass = -7


class NotFoundError(Error, LookupError):
    klass = -8


class ExistsError(Error):
    klass = -9


class PluginError(Error):
    klass = -10


class ValueOverflowError(Error, OverflowError):
    klass = -11


class RefusedError(Error):
    """A report refuses: the data cannot support it (e.g. MFU without an
    uninstrumented step time)."""
    klass = -12


class UnavailableError(Error):
    klass = -13


class StateError(Error):
    klass = -14


_BY_KLASS = {cls.klass: cls for cls in (
    Error, OutOfMemoryError, FileError, InvalidArgumentError, ParseError,
    InputError, VersionError, NotFoundError, ExistsError, PluginError,
    ValueOverflowError, RefusedError, UnavailableError, StateError)}


def _make(klass, code, message, remedy, file=None, line=0, column=0):
    """Factory the C binding calls with tlc_error_last()'s fields."""
    cls = _BY_KLASS.get(klass, Error)
    return cls(code, message, remedy, file, line, column)


def usage(code: str, message: str, remedy: str) -> InvalidArgumentError:
    """An error of the Python layer itself (a capture option that cannot
    apply, a bad mode): same shape as the library's."""
    return InvalidArgumentError(code, message, remedy)


def _error_reduce(self):
    # pickled whole (a Dask task's error reaches the client with its
    # class, code, remedy and position)
    return (_make, (self.klass, self.code, self.message, self.remedy,
                    self.file, self.line, self.column))


Error.__reduce__ = _error_reduce


def exit_status(e: Error, usage_classes=(ValueError, LookupError)) -> int:
    """The exit status of the C command's policy (docs/errors.md "Exit
    status") for a command that stops on e: 3 when an output could not be
    written whole (output_*), 2 for a command line that is wrong (e is an
    instance of usage_classes, or usage_error), else 1."""
    if e.code.startswith("output_"):
        return 3
    if e.code == "usage_error" or (isinstance(e, usage_classes)
                                   and not isinstance(e, OSError)):
        return 2
    return 1


def print_error(e: Error, stream=None, prog: str = "tlcost") -> None:
    """``PROG: error: CODE: message``, ``  at FILE:LINE:COL``, ``  remedy:
    ...`` on stderr, as the C command prints a typed error."""
    import sys
    stream = stream or sys.stderr
    print("%s: error: %s: %s" % (prog, e.code, e.message), file=stream)
    if e.position:
        print("  %s %s" % ("at" if e.line else "in", e.position), file=stream)
    print("  remedy: %s" % e.remedy, file=stream)


#: the Debian package of each optional module the package imports
_DEBIAN = {"torch": "python3-torch", "torchvision": "python3-torchvision",
           "distributed": "python3-distributed", "dask": "python3-dask",
           "pandas": "python3-pandas"}


def module_unavailable(exc: ImportError, what: str) -> UnavailableError:
    """The typed error for a feature (``what``) whose module this
    interpreter cannot import, naming the interpreter configure built the
    package for and how to choose one."""
    import sys
    import _tlcost
    name = (exc.name or "").split(".")[0] or "?"
    built = getattr(_tlcost, "build_python", "") or "python3"
    pkg = _DEBIAN.get(name, name)
    return UnavailableError(
        "python_module_unavailable",
        "%s needs the Python module '%s', which this interpreter (%s) cannot "
        "import (%s); tlcost was built for %s" % (what, name, sys.executable, exc, built),
        "run it with %s, the interpreter configure chose; or install %s for %s; "
        "or rebuild tlcost for this interpreter: ./configure PYTHON=%s"
        % (built, pkg, sys.executable, sys.executable))
