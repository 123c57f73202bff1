"""One family of errors. The CLI maps ScentError to exit 1 and UsageError to exit 2."""


class ScentError(Exception):
    """Something went wrong at run time; the message says what and what to do."""


class UsageError(ScentError):
    """The caller asked for something that cannot mean anything (bad setting, bad filter)."""


class IndexNotFound(ScentError):
    """No index exists where one was expected."""


class IndexVersionError(ScentError):
    """The index was written by a newer scent, or by another embedding model."""


class ExtractError(ScentError):
    """One file could not be read into units; indexing goes on without it."""

    def __init__(self, path, reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


class OcrUnavailable(ScentError):
    """No OCR engine can run here (not installed, or a language's data is missing). The indexer
    says so once and goes on indexing pictures by their names and dates."""


class OcrFailed(ScentError):
    """OCR of one picture or page failed (timed out, crashed); the file is still indexed."""
