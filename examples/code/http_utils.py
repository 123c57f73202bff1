"""Small HTTP and configuration helpers for the photo upload daemon.

Nothing here talks to the network by itself; the functions turn raw bytes and files into
plain Python values so they are easy to test.
"""
from __future__ import annotations

import configparser
import random
import time
from pathlib import Path

DEFAULT_TIMEOUT = 12.5
MAX_HEADER_LENGTH = 8192


class HeaderParseError(ValueError):
    """Raised when a header line is not of the form `Name: value`."""


def parse_http_header(line: str) -> tuple[str, str]:
    """Split one raw HTTP header line into a lower-cased name and its value.

    >>> parse_http_header("Content-Type: text/html; charset=utf-8")
    ('content-type', 'text/html; charset=utf-8')

    Leading and trailing whitespace around the value is removed. Obsolete line folding
    (a continuation line starting with a space) must be joined by the caller.
    """
    if len(line) > MAX_HEADER_LENGTH:
        raise HeaderParseError("header line too long")
    name, sep, value = line.partition(":")
    if not sep or not name or name != name.strip():
        raise HeaderParseError(f"not a header line: {line!r}")
    return name.lower(), value.strip()


def parse_content_type(value: str) -> tuple[str, dict[str, str]]:
    """Return the media type and its parameters, e.g. ('text/html', {'charset': 'utf-8'})."""
    media_type, *params = [p.strip() for p in value.split(";")]
    out: dict[str, str] = {}
    for param in params:
        key, _, val = param.partition("=")
        out[key.strip().lower()] = val.strip().strip('"')
    return media_type.lower(), out


def readConfigFile(path: str | Path) -> dict[str, str]:
    """Read the INI-style config file of the daemon and return the [upload] section as a dict.

    Missing keys fall back to defaults: server=localhost, port=8443, timeout=DEFAULT_TIMEOUT.
    Kept in camelCase because the old Java client calls it by this name over RPC.
    """
    parser = configparser.ConfigParser()
    parser.read_dict({"upload": {"server": "localhost", "port": "8443",
                                 "timeout": str(DEFAULT_TIMEOUT)}})
    parser.read(Path(path).expanduser(), encoding="utf-8")
    return dict(parser["upload"])


class RetryPolicy:
    """Exponential backoff with jitter for flaky uploads.

    The delay before attempt n (starting at 1) is a random value between 0 and
    min(cap, base_delay * 2 ** (n - 1)) seconds ("full jitter").
    """

    def __init__(self, max_attempts: int = 5, base_delay: float = 0.5, cap: float = 30.0):
        self.max_attempts = max_attempts
        self.base_delay = base_delay
        self.cap = cap

    def delay_for(self, attempt: int) -> float:
        return random.uniform(0, min(self.cap, self.base_delay * 2 ** (attempt - 1)))

    def run(self, func, *args, **kwargs):
        """Call func until it succeeds or the attempts are used up; re-raise the last error."""
        for attempt in range(1, self.max_attempts + 1):
            try:
                return func(*args, **kwargs)
            except OSError:
                if attempt == self.max_attempts:
                    raise
                time.sleep(self.delay_for(attempt))


class UploadClient:
    """Uploads one file at a time to the home server, retrying with a RetryPolicy."""

    def __init__(self, config_path: str = "~/.config/photo-daemon/daemon.ini"):
        self.config = readConfigFile(config_path)
        self.retry = RetryPolicy()

    def build_headers(self, filename: str, size: int) -> dict[str, str]:
        return {
            "Content-Type": "application/octet-stream",
            "Content-Length": str(size),
            "X-Filename": filename,
        }
