"""GPS tracks and saved places (.gpx, .kml, .kmz): a hike a watch recorded, a route a planner
made, the places pinned on a map. Indexed as text (kind `text`): the names and descriptions
their author gave (the track's, each waypoint's or placemark's, a map's folders'), and what the
points say in words, so "the ride from Annecy last June" finds it: where it starts and ends (the
nearest town, scent.places), how far it goes, how long it took, and on which day (the file's
date, for `after:` and `before:`).

A .gpx is GPX 1.0 or 1.1; a .kml is Google Earth's and My Maps' KML 2.2; a .kmz is a zip holding
one (doc.kml, else the first .kml in it), read to at most max_file_mb. The XML is parsed by lxml
without entities or the network (scent.extract.package.SAFE_XML). Descriptions written as HTML
(My Maps' are) are read as their text.
"""
from __future__ import annotations

import os
import zipfile
from datetime import datetime, timezone

from lxml import etree

from scent.dates import in_words
from scent.units import Extracted, Section
from .base import Limits, laid_out, named, read_bytes, unreadable
from .media import duration_words
from .package import SAFE_XML

VERSION = 2  # 2: Google Earth tracks (gx:Track)
EXTENSIONS = (".gpx", ".kml", ".kmz")
KIND = "text"
_TEXT_TAGS = ("name", "desc", "cmt", "type", "description", "address", "keywords")


def extract(path: str, limits: Limits) -> Extracted:
    ext = os.path.splitext(path)[1].lower()
    what = {".gpx": "GPX track", ".kml": "KML file", ".kmz": "KMZ file"}[ext]
    raw = _kml_of(path, limits) if ext == ".kmz" else read_bytes(path, limits)
    try:
        root = etree.fromstring(raw, SAFE_XML)
    except etree.XMLSyntaxError as e:
        raise unreadable(path, what, f"its XML does not parse: {e}") from None
    if root is None:
        raise unreadable(path, what, "it holds no XML")
    gpx = etree.QName(root).localname == "gpx"
    if not gpx and etree.QName(root).localname != "kml":
        raise unreadable(path, what, f"its XML is a <{etree.QName(root).localname}>, not a <gpx> or <kml>")
    lines, lines_seen = [], set()
    for element in root.iter(*(f"{{*}}{tag}" for tag in _TEXT_TAGS)):  # filtered by lxml, not Python
        text = _words(element.text or "")
        if text and text not in lines_seen:
            lines_seen.add(text)
            lines.append(text)
    paths = _gpx_paths(root) if gpx else _kml_paths(root)
    # The points' times (a GPX point's <time>, KML's <when>) give the day and how long it took; a
    # GPX file's own <time> (when it was exported) only the day, where the points have none.
    stamped = [(e, t) for e in root.iter("{*}time", "{*}when") if (t := _time(e.text))]
    times = sorted(t for e, t in stamped if etree.QName(e.getparent()).localname != "metadata")
    saved = [t for _, t in stamped]
    day = times[0] if times else (saved[0] if saved else None)
    text = "\n".join((_facts(paths, times, day), *lines))
    return Extracted(kind=KIND, sections=laid_out([Section(text=text, kind=KIND)]),
                     title=_title(root) or os.path.basename(path), date=day.timestamp() if day else None)


def _title(root) -> str:
    """The name of the whole: a GPX file's own or its first track's or route's (not a waypoint's,
    which come first), a KML document's or its first folder's or placemark's."""
    first: dict[str, str] = {}
    for element in root.iter("{*}name"):
        if name := _words(element.text or ""):
            first.setdefault(etree.QName(element.getparent()).localname, name)
    return next((first[p] for p in ("metadata", "trk", "rte", "Document", "Folder", "Placemark") if p in first), "")


def _kml_of(path: str, limits: Limits) -> bytes:
    try:
        with zipfile.ZipFile(path) as z:
            names = [n for n in z.namelist() if n.lower().endswith(".kml")]
            if not names:
                raise unreadable(path, "KMZ file", "it holds no .kml")
            name = "doc.kml" if "doc.kml" in names else names[0]
            if z.getinfo(name).file_size > limits.max_text_bytes:
                raise unreadable(path, "KMZ file", f"its {name} inflates to over {limits.max_text_bytes // 2**20} MB",
                                 maybe="", fix="raise max_file_mb or add it to .scentignore")
            with z.open(name) as f:
                return f.read(limits.max_text_bytes + 1)[:limits.max_text_bytes]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError, EOFError, ValueError) as e:
        raise unreadable(path, "KMZ file", named(e)) from None


def _words(text: str) -> str:
    """A name or description as words: HTML (My Maps writes it) read as its text."""
    if "<" in text and ">" in text:
        from bs4 import BeautifulSoup

        text = BeautifulSoup(text, "html.parser").get_text(" ")
    return " ".join(text.split())


def _gpx_paths(root) -> list[list[tuple[float, float]]]:
    """Each track segment's and route's points, and the waypoints each a path of one point."""
    paths = []
    for element in root.iter("{*}trkseg", "{*}rte", "{*}wpt"):
        name = etree.QName(element).localname
        if name in ("trkseg", "rte"):
            paths.append([p for p in map(_point, element) if p])
        elif name == "wpt" and (p := _point(element)):
            paths.append([p])
    return [p for p in paths if p]


def _point(element) -> tuple[float, float] | None:
    if not isinstance(element.tag, str) or etree.QName(element).localname not in ("trkpt", "rtept", "wpt"):
        return None
    try:
        lat, lon = float(element.get("lat")), float(element.get("lon"))
    except (TypeError, ValueError):
        return None
    return (lat, lon) if -90 <= lat <= 90 and -180 <= lon <= 180 else None


def _kml_paths(root) -> list[list[tuple[float, float]]]:
    """Each <coordinates> ("lon,lat[,alt] lon,lat ..."): a point, a line or a shape's ring; and each
    Google track (<gx:Track>, what Google Earth and phone apps record: a <gx:coord> "lon lat alt"
    for each <when>)."""
    paths = []
    for element in root.iter("{*}coordinates", "{*}Track"):
        if etree.QName(element).localname == "Track":
            triples = [(c.text or "").split() for c in element.iter("{*}coord")]
        else:
            triples = [t.split(",") for t in (element.text or "").split()]
        points = []
        for triple in triples:
            try:
                lon, lat = (float(v) for v in triple[:2])
            except ValueError:
                continue
            if -90 <= lat <= 90 and -180 <= lon <= 180:
                points.append((lat, lon))
        if points:
            paths.append(points)
    return paths


def _time(text: str | None) -> datetime | None:
    try:
        when = datetime.fromisoformat((text or "").strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def _facts(paths: list[list[tuple[float, float]]], times: list[datetime], day: datetime | None) -> str:
    """"GPS track, 12.4 km, 3 hours 10 minutes, 14 March 2024 (2024-03-14)" and "from Annecy,
    France to near Talloires, France": the words a person searches with."""
    from scent.places import km_between, place_words

    lines = [p for p in paths if len(p) > 1]
    km = sum(km_between(a, b) for p in lines for a, b in zip(p, p[1:]))
    said = ["GPS track" if lines else "places"]
    if km >= 0.05:
        said.append(f"{km:.1f} km")
    if len(times) > 1 and (seconds := (times[-1] - times[0]).total_seconds()) > 0:
        said.append(duration_words(seconds))
    if day:
        said.append(in_words(day))
    first = ", ".join(said)
    where = []
    if lines:
        start, end = lines[0][0], lines[-1][-1]
        begins, ends = place_words(*start), place_words(*end)
        if begins:
            where.append(f"from {begins.removeprefix('in ')}")
        if ends and ends != begins:
            where.append(f"to {ends.removeprefix('in ')}")
    else:
        where = list(dict.fromkeys(filter(None, (place_words(*p[0]) for p in paths[:100]))))
    return "\n".join(filter(None, (first, "; ".join(where))))
