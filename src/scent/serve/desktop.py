"""Open a file in this machine's own app, or show it in its folder: what "Open in its app" and
"Show in folder" of the web UI do on a local server."""
from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from .files import Refused


class OpenRequest(BaseModel):
    path: str = Field(description="Path relative to the indexed folder, as in results.")
    how: Literal["app", "folder"] = Field("app", description="app: open the file; folder: show it in its folder.")


def command(path: Path, how: str, platform: str = sys.platform) -> list[str]:
    """The command line that opens `path` (how="app") or shows it in its folder (how="folder")."""
    if platform == "darwin":
        return ["open", "-R", str(path)] if how == "folder" else ["open", str(path)]
    if platform.startswith("win"):
        return ["explorer", f"/select,{path}"] if how == "folder" else ["explorer", str(path)]
    # freedesktop has no portable "select this file"; its folder is opened instead.
    return ["xdg-open", str(path.parent if how == "folder" else path)]


# How long an opener is given to say it failed: xdg-open and open hand the file over and exit at
# once; one that runs the app itself (xdg-open's generic fallback) is still running after it.
OPENER_WAIT_S = 2.0
# xdg-open's exit codes (xdg-utils): what each means for the person who clicked.
_XDG_FAILURES = {1: "it was called wrongly", 2: "the file is not there", 3: "no application here opens this kind of file",
                 4: "the application failed to open it"}


def open_on_desktop(path: Path, how: str, platform: str = sys.platform) -> Path:
    """Start the opener and return what it was given. An opener that fails at once is a Refused
    (it said "opened in its app" while xdg-open had found no application); one still running after
    OPENER_WAIT_S is taken to have opened it, and is waited for in the background (no zombie)."""
    cmd = command(path, how, platform)
    if shutil.which(cmd[0]) is None:
        raise Refused(501, f"cannot open files here: {cmd[0]} is not installed on the machine running scent serve")
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
    except OSError as err:
        raise Refused(500, f"cannot start {cmd[0]}: {err}") from None
    try:
        code = proc.wait(timeout=OPENER_WAIT_S)
    except subprocess.TimeoutExpired:
        threading.Thread(target=proc.wait, daemon=True).start()
        code = 0
    # Windows' explorer exits 1 when it has opened the file: only the others' codes say anything.
    if code != 0 and not platform.startswith("win"):
        why = _XDG_FAILURES.get(code, f"exit status {code}") if cmd[0] == "xdg-open" else f"exit status {code}"
        raise Refused(502, f"{cmd[0]} could not open it ({why}); open it from its folder instead")
    return Path(cmd[-1].removeprefix("/select,"))
