"""Open a file in this machine's own app, or show it in its folder: what "Open in its app" and
"Show in folder" of the web UI do on a local server."""
from __future__ import annotations

import shutil
import subprocess
import sys
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


def open_on_desktop(path: Path, how: str) -> Path:
    """Start the opener and return what it was given; it runs on by itself (never waited for)."""
    cmd = command(path, how)
    if shutil.which(cmd[0]) is None:
        raise Refused(501, f"cannot open files here: {cmd[0]} is not installed on the machine running scent serve")
    try:
        subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    except OSError as err:
        raise Refused(500, f"cannot start {cmd[0]}: {err}") from None
    return Path(cmd[-1].removeprefix("/select,"))
