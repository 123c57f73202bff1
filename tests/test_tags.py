"""What a photo's own metadata says of it (scent.extract.tags): XMP as Lightroom and digiKam write
it, IPTC IIM as older managers do (an APP13 segment laid out here by the IPTC and Photoshop
specifications), and the EXIF tags Windows' Properties dialog writes (UTF-16)."""
from __future__ import annotations

import io
import struct

from PIL import Image

from scent import Index
from scent.extract import Limits, extract

from conftest import FakeEmbedder

XMP = b"""<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
 <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
   xmlns:lr="http://ns.adobe.com/lightroom/1.0/" xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"
   xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
   photoshop:City="Porto" photoshop:Country="Portugal" Iptc4xmpCore:Location="Ribeira">
  <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Grandma at the market</rdf:li></rdf:Alt></dc:title>
  <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Buying figs before the rain</rdf:li></rdf:Alt></dc:description>
  <dc:subject><rdf:Bag><rdf:li>family</rdf:li><rdf:li>market</rdf:li></rdf:Bag></dc:subject>
  <lr:hierarchicalSubject><rdf:Bag><rdf:li>People|Ana Silva</rdf:li><rdf:li>Places|Porto</rdf:li></rdf:Bag></lr:hierarchicalSubject>
  <mwg-rs:Regions><rdf:Description><mwg-rs:RegionList><rdf:Bag><rdf:li>
   <rdf:Description mwg-rs:Name="Bruno Costa" mwg-rs:Type="Face"/></rdf:li></rdf:Bag></mwg-rs:RegionList></rdf:Description>
  </mwg-rs:Regions>
 </rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>"""


def _jpeg(path, exif=None, xmp=None, app13: bytes = b""):
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (90, 120, 60)).save(out, "JPEG", exif=exif or Image.Exif(), **({"xmp": xmp} if xmp else {}))
    data = out.getvalue()
    path.write_bytes(data[:2] + app13 + data[2:])  # after SOI
    return str(path)


def test_xmp_title_caption_keywords_people_and_place(tmp_path):
    got = extract(_jpeg(tmp_path / "DSC_0042.jpg", xmp=XMP), Limits(root=str(tmp_path)))
    assert got.sections[0].text == ("DSC 0042\nin Ribeira, Porto, Portugal\n40x30\nGrandma at the market\n"
                                    "Buying figs before the rain\nkeywords: family, market, Ana Silva, Porto\n"
                                    "people: Bruno Costa")


def test_windows_tags_count_and_a_cameras_own_description_does_not(tmp_path):
    exif = Image.Exif()
    exif[0x010E] = "OLYMPUS DIGITAL CAMERA         "  # what the camera wrote
    exif[0x013B] = "Ana"  # the artist: not read (it is who owns the photo, often a copyright line)
    exif[0x9C9C] = '{"shape": [40, 30, 3]}'.encode("utf-16-le")  # XPComment: software's own JSON
    exif[0x9C9B] = "Beach day".encode("utf-16-le") + b"\x00\x00"  # XPTitle
    exif[0x9C9E] = "beach;sunset;Zé".encode("utf-16-le") + b"\x00\x00"  # XPKeywords
    got = extract(_jpeg(tmp_path / "IMG_1.jpg", exif=exif), Limits(root=str(tmp_path)))
    assert got.sections[0].text == "IMG 1\n40x30\nBeach day\nkeywords: beach, sunset, Zé"


def _iim(*datasets: tuple[int, str]) -> bytes:
    """An APP13 segment: Photoshop's image resource 0x0404 holding IPTC IIM record-2 datasets."""
    body = b"".join(b"\x1c\x02" + bytes([tag]) + struct.pack(">H", len(v.encode())) + v.encode()
                    for tag, v in datasets)
    body += b"\x00" * (len(body) % 2)
    resource = b"8BIM" + struct.pack(">H", 0x0404) + b"\x00\x00" + struct.pack(">I", len(body)) + body
    payload = b"Photoshop 3.0\x00" + resource
    return b"\xff\xed" + struct.pack(">H", len(payload) + 2) + payload


def test_iptc_caption_keywords_and_place(tmp_path):
    app13 = _iim((120, "Lighthouse at dusk"), (25, "coast"), (25, "lighthouse"), (90, "Peterhead"), (101, "Scotland"))
    got = extract(_jpeg(tmp_path / "scan.jpg", app13=app13), Limits(root=str(tmp_path)))
    assert got.sections[0].text == ("scan\nin Peterhead, Scotland\n40x30\nLighthouse at dusk\n"
                                    "keywords: coast, lighthouse")


def test_a_photo_is_found_by_the_words_written_into_it(tmp_path):
    _jpeg(tmp_path / "DSC_0042.jpg", xmp=XMP)
    _jpeg(tmp_path / "DSC_0043.jpg")
    idx = Index(tmp_path, embedder=FakeEmbedder())
    idx.update()
    assert [r.path for r in idx.search("grandma figs", strategy="keyword")] == ["DSC_0042.jpg"]
    assert [r.path for r in idx.search("Bruno", strategy="keyword")] == ["DSC_0042.jpg"]


def test_damaged_xmp_costs_only_itself(tmp_path):
    got = extract(_jpeg(tmp_path / "IMG_2.jpg", xmp=b"<x:xmpmeta><rdf:RDF><broken"), Limits(root=str(tmp_path)))
    assert got.sections[0].text == "IMG 2\n40x30"
