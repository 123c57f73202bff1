"""Text from users' files (names, contents, reasons naming them) made safe to print.

A file name or a snippet may hold terminal escape sequences (ESC [ 2 J, OSC 52 to set the
clipboard, a C1 CSI) or bidi overrides that make a name read as another; printed raw they would
act on the user's terminal instead of being read. `visible` writes every control character as a
Python-style escape, so it shows and does nothing; `json_line` keeps JSON exact (a program gets
the true name back) but leaves no control character raw in the line either.
"""
from __future__ import annotations

import json

# C0, DEL and C1 controls; the bidi embeddings, overrides and isolates. Not ZWJ/ZWNJ: Indic
# scripts and emoji need them, and they move nothing.
_CONTROLS = [*range(0x20), *range(0x7F, 0xA0)]
_BIDI = [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_VISIBLE = {c: f"\\x{c:02x}" for c in _CONTROLS} | {c: f"\\u{c:04x}" for c in _BIDI}
# json.dumps escapes C0 itself; these it leaves raw with ensure_ascii=False.
_JSON = {c: f"\\u{c:04x}" for c in [*range(0x7F, 0xA0), *_BIDI]}


def visible(text: str) -> str:
    """`text` with each control character written out (ESC as \\x1b, a newline as \\x0a)."""
    return str(text).translate(_VISIBLE)


def visible_lines(text: str) -> str:
    """`visible` for text of several lines: the newlines stay, each line is made safe."""
    return "\n".join(visible(line) for line in str(text).split("\n"))


def json_line(obj) -> str:
    """One JSON object on one line, non-ASCII text as it is, no raw control character."""
    return json.dumps(obj, ensure_ascii=False).translate(_JSON)


class ProgressPrinter:
    """Prints an index run's progress (scent.progress.Progress) on `stream`: on a terminal one
    line rewritten in place (at most every `refresh` seconds, and at each change of stage); to a
    file or pipe a plain line every `interval` seconds, so a log shows the run is alive without
    thousands of lines. `message` prints another line (a skipped file) without garbling the bar."""

    def __init__(self, stream, interactive: bool | None = None, interval: float = 10.0, refresh: float = 0.1,
                 clock=None, width: int = 100):
        import time

        self.stream = stream
        self.interactive = stream.isatty() if interactive is None else interactive
        self.interval, self.refresh, self.width = interval, refresh, width
        self._clock = clock or time.monotonic
        self._last_shown = None  # clock time of the last line printed
        self._last_stage = None
        self._shown = False  # a line in place that a message must erase first
        self._latest = None

    def __call__(self, p) -> None:
        self._latest = p
        now = self._clock()
        if self.interactive:
            due = self._last_shown is None or now - self._last_shown >= self.refresh or p.stage != self._last_stage
        else:
            due = self._last_shown is None and p.files_total or (
                self._last_shown is not None and now - self._last_shown >= self.interval)
        if not due:
            return
        self._last_shown, self._last_stage = now, p.stage
        self._show(progress_line(p))

    def _show(self, line: str) -> None:
        if self.interactive:
            self.stream.write("\r" + line[:self.width - 1] + "\x1b[K")
            self._shown = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def message(self, text: str) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self._shown = False
        self.stream.write(text + "\n")
        if self.interactive and self._latest is not None:
            self._show(progress_line(self._latest))
        self.stream.flush()

    def close(self) -> None:
        """Erase the line in place (the summary line follows)."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False


def progress_line(p) -> str:
    """`scent: embedding  12/18 files  3.1 files/s  45 texts/s  ~2 s left  notes/lease.md`"""
    parts = [f"scent: {p.stage:<14}", f"{p.files_done}/{p.files_total} files",
             f"{p.files_per_s:.1f} files/s", f"{p.units_per_s:.0f} texts/s"]
    left = p.seconds_left
    if left is not None:
        parts.append(f"~{_duration(left)} left")
    if p.path:
        parts.append(visible(p.path if len(p.path) <= 50 else "..." + p.path[-47:]))
    return "  ".join(parts)


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
