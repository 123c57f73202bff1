"""One family of errors. The CLI maps ScentError to exit 1 and UsageError to exit 2."""


class ScentError(Exception):
    """Something went wrong at run time; the message says what and what to do."""


class UsageError(ScentError):
    """The caller asked for something that cannot mean anything (bad setting, bad filter)."""


class IndexNotFound(ScentError):
    """No index exists where one was expected."""


class NotIndexed(ScentError):
    """A file asked about by path is not in the index (or not for this reader)."""


class IndexBusy(ScentError):
    """Another run is indexing into the index (it holds the index's lock)."""


class IndexVersionError(ScentError):
    """The index was written by a newer scent, or by another embedding model."""


class ExtractError(ScentError):
    """One file could not be read into units; indexing goes on without it."""

    def __init__(self, path, reason: str):
        self.path = str(path)
        self.reason = " ".join(str(reason).split())  # one line, whatever a library's message holds
        super().__init__(f"{self.path}: {self.reason}")


class OcrUnavailable(ScentError):
    """No OCR engine can run here (not installed, or a language's data is missing). The indexer
    says so once and goes on indexing pictures by their names and dates."""


class OcrFailed(ScentError):
    """OCR of one picture or page failed (timed out, crashed); the file is still indexed."""



def write_refusal(err: BaseException) -> str | None:
    """"full" or "read-only" when `err` is the file system refusing a write, else None."""
    import errno
    import sqlite3

    if isinstance(err, sqlite3.OperationalError):
        text = str(err)
        if "full" in text or "disk I/O error" in text:  # SQLite says I/O error for EFBIG (a file size limit)
            return "full"
        if "readonly" in text or "read-only" in text or "unable to open" in text:
            return "read-only"
    elif isinstance(err, OSError):
        if err.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
            return "full"
        if err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return "read-only"
    return None


def cannot_write(index_dir, err: BaseException) -> ScentError | None:
    """The ScentError for a write the file system refused (disk full, read-only, no permission),
    or None when `err` is something else. SQLite rolls the transaction back: the index keeps every
    file written before, so the message can say so."""
    kind = write_refusal(err)
    text = (err.strerror if isinstance(err, OSError) else None) or str(err)
    if kind == "full":
        return ScentError(f"cannot write the index in {index_dir}: the disk is full or failing ({text}); free some "
                          "space and run scent index again (the index keeps every file written before)")
    if kind == "read-only":
        return ScentError(f"cannot write the index in {index_dir}: the folder is read-only or not yours ({text}); "
                          "make it writable or pick another --index (searching it still works)")
    return None
