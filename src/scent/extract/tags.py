"""What a photo's own metadata says of it: the title, caption, keywords, people and place that a
person or their photo manager wrote into the file (Lightroom, digiKam, Apple Photos' and Google
Photos' exports, Windows' Properties dialog), in the words they chose: "Grandma at the market",
"keywords: family, market", "people: Ana Silva", "Ribeira, Porto, Portugal".

Three places hold them, all read here: XMP (Adobe's RDF in the file: Dublin Core's title,
description and subject, Lightroom's hierarchical keywords, IPTC Core's and Photoshop's place,
the Metadata Working Group's and Windows' face regions' names), IPTC IIM (the older binary
records: object name, caption, keywords, city, country), and the EXIF tags Windows writes
(XPTitle, XPSubject, XPKeywords, XPComment: UTF-16) beside ImageDescription. Cameras fill
ImageDescription with their own name ("OLYMPUS DIGITAL CAMERA"): such text is no one's words
and is left out. XMP is parsed by lxml without entities or the network.
"""
from __future__ import annotations

import re

from PIL import Image

_DC = "http://purl.org/dc/elements/1.1/"
_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_PHOTOSHOP = "http://ns.adobe.com/photoshop/1.0/"
_IPTC_CORE = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
_LIGHTROOM = "http://ns.adobe.com/lightroom/1.0/"
_REGIONS = "http://www.metadataworkinggroup.com/schemas/regions/"
_MS_REGION = "http://ns.microsoft.com/photo/1.2/t/Region#"
_MS_PHOTO = "http://ns.microsoft.com/photo/1.0/"
# Where each kind of words lives in XMP: (namespace, property).
_TITLE = ((_DC, "title"), (_PHOTOSHOP, "Headline"))
_CAPTION = ((_DC, "description"),)
_KEYWORDS = ((_DC, "subject"), (_MS_PHOTO, "LastKeywordXMP"))
_HIERARCHY = ((_LIGHTROOM, "hierarchicalSubject"),)
_PEOPLE = ((_REGIONS, "Name"), (_MS_REGION, "PersonDisplayName"))
_PLACE = ((_IPTC_CORE, "Sublocation"), (_IPTC_CORE, "Location"), (_PHOTOSHOP, "City"), (_PHOTOSHOP, "State"),
          (_PHOTOSHOP, "Country"))
# EXIF (IFD0): ImageDescription, Artist aside; Windows' own tags, UTF-16.
_DESCRIPTION, _XP_TITLE, _XP_COMMENT, _XP_KEYWORDS, _XP_SUBJECT = 0x010E, 0x9C9B, 0x9C9C, 0x9C9E, 0x9C9F
# IPTC IIM (record 2): object name, keywords, sub-location, city, state, country, caption.
_IIM_TITLE, _IIM_KEYWORDS, _IIM_CAPTION = (2, 5), (2, 25), (2, 120)
_IIM_PLACE = ((2, 92), (2, 90), (2, 95), (2, 101))
# What cameras and phones write as a "description" on their own.
_NO_ONES = re.compile(r"(?:[A-Z ]*DIGITAL CAMERA|SONY DSC|DCIM|DEFAULT|UNTITLED|SAMSUNG|PICASA|HDR|LEICA|"
                      r"SCREENSHOT|IMAGE|PHOTO|DESCRIPTION|\W*)", re.I)
# What software writes there for itself: JSON or XML (tifffile's shape, a scanner's settings),
# "key=value" lines (ImageJ's).
_MACHINES = re.compile(r"[{\[<]|\w+=")
MAX_XMP = 256 * 1024  # an XMP packet of words; past this it holds a thumbnail or a history


def words(img: Image.Image, exif: Image.Exif, camera: str = "") -> tuple[list[str], str]:
    """(lines: title, caption, keywords, people; where it was taken as written into it, "in
    Ribeira, Porto, Portugal", or "")."""
    title, caption, keywords, people, place = [], [], [], [], []
    xmp = img.info.get("xmp") or img.info.get("XML:com.adobe.xmp") or b""
    if isinstance(xmp, str):
        xmp = xmp.encode("utf-8", "replace")
    if xmp and len(xmp) <= MAX_XMP:
        title, caption, keywords, people, place = _xmp_parts(xmp)
    iim = _iptc(img)
    title += iim.get(_IIM_TITLE, [])
    caption += iim.get(_IIM_CAPTION, [])
    keywords += iim.get(_IIM_KEYWORDS, [])
    if not place:
        place = [p for key in _IIM_PLACE for p in iim.get(key, [])]
    title += [_utf16(exif.get(_XP_TITLE)), _utf16(exif.get(_XP_SUBJECT))]
    caption += [_text(exif.get(_DESCRIPTION)), _utf16(exif.get(_XP_COMMENT))]
    keywords += _utf16(exif.get(_XP_KEYWORDS)).split(";")
    return people_and_words(title + caption, keywords, people, camera), _in(place, camera)


def xmp_words(packet: bytes, camera: str = "") -> tuple[list[str], str]:
    """What an XMP packet (a sidecar's) says: (lines, where, as `words` says it)."""
    title, caption, keywords, people, place = _xmp_parts(packet)
    return people_and_words(title + caption, keywords, people, camera), _in(place, camera)


def _in(place: list[str], camera: str) -> str:
    named = ", ".join(_kept(place, camera))
    return f"in {named}" if named else ""


def people_and_words(said: list[str], keywords: list[str], people: list[str], camera: str = "") -> list[str]:
    """The lines a picture's unit gets: what was said of it (each once), then "keywords: ..."
    and "people: ...", without a camera's own words or what is said already."""
    said = _kept(said, camera)
    return said + [f"{what}: {', '.join(items)}" for what, items in
                   (("keywords", _kept(keywords, camera, said)), ("people", _kept(people, camera, said))) if items]


def _xmp_parts(packet: bytes) -> tuple[list[str], list[str], list[str], list[str], list[str]]:
    found = _xmp(packet)

    def of(group: tuple) -> list[str]:
        return [v for key in group for v in found.get(key, [])]

    return (of(_TITLE), of(_CAPTION), of(_KEYWORDS) + [k.split("|")[-1] for k in of(_HIERARCHY)], of(_PEOPLE),
            of(_PLACE))


def _kept(values: list[str], camera: str, said: list[str] = ()) -> list[str]:
    """Each value once, in words, without a camera's own and without what is said already."""
    out: dict[str, str] = {}
    known = {s.lower() for s in said} | {camera.lower()}
    for value in values:
        value = " ".join(str(value or "").replace("\x00", " ").split())
        if value and not _NO_ONES.fullmatch(value) and not _MACHINES.match(value) and value.lower() not in known:
            out.setdefault(value.lower(), value)
    return list(out.values())


def _xmp(packet: bytes) -> dict[tuple[str, str], list[str]]:
    """Each wanted (namespace, property)'s values: an attribute's, an element's text, or its
    rdf:li items, in the packet's order."""
    from lxml import etree

    from .package import SAFE_XML

    start = packet.find(b"<x:xmpmeta")
    try:
        root = etree.fromstring(packet[start:] if start > 0 else packet, SAFE_XML)
    except etree.XMLSyntaxError:
        return {}
    if root is None:
        return {}
    wanted = {f"{{{ns}}}{name}": (ns, name) for group in (_TITLE, _CAPTION, _KEYWORDS, _HIERARCHY, _PEOPLE, _PLACE)
              for ns, name in group}
    found: dict[tuple[str, str], list[str]] = {}
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for key, value in element.attrib.items():
            if key in wanted:
                found.setdefault(wanted[key], []).append(value)
        if element.tag in wanted:
            items = [li.text or "" for li in element.iter(f"{{{_RDF}}}li")]
            found.setdefault(wanted[element.tag], []).extend(items or [element.text or ""])
    return found


def _iptc(img: Image.Image) -> dict[tuple[int, int], list[str]]:
    """IPTC IIM's datasets as text (UTF-8 where it says so or decodes, else Latin-1)."""
    from PIL import IptcImagePlugin

    try:
        info = IptcImagePlugin.getiptcinfo(img) or {}
    except (OSError, ValueError, SyntaxError, IndexError, TypeError):
        return {}
    out: dict[tuple[int, int], list[str]] = {}
    for key, value in info.items():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, bytes):
                try:
                    text = item.decode("utf-8")
                except UnicodeDecodeError:
                    text = item.decode("latin-1")
                out.setdefault(key, []).append(text)
    return out


def _utf16(value) -> str:
    """A Windows XP* tag: UTF-16LE bytes, or the same as a tuple of byte values."""
    if isinstance(value, tuple):
        value = bytes(v & 0xFF for v in value)
    if isinstance(value, bytes):
        return value.decode("utf-16-le", "replace").rstrip("\x00")
    return ""


def _text(value) -> str:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return value if isinstance(value, str) else ""
