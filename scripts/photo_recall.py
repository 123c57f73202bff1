"""Retrieval of real photos by what they show: "a photo of a <thing>" against neutrally named
files (IMG_0001.jpg ...), using scikit-image's sample photos and, if given, Debian darknet's
(`apt-get download darknet && dpkg -x darknet_*.deb x`, then --darknet x/usr/share/darknet/data).

    .venv/bin/python scripts/photo_recall.py [--darknet DIR]

Prints each query's rank and recall@1 / recall@5. Needs scikit-image (a dev dependency).
"""
from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from PIL import Image

SKIMAGE = {"astronaut": "a photo of an astronaut", "coffee": "a photo of a cup of coffee",
           "chelsea": "a photo of a cat", "rocket": "a photo of a rocket launch"}
# scikit-image's other real photographs (bundled in its wheel), added after the first ten: grey
# scenes, textures and science pictures, harder for labels learnt on everyday objects.
SKIMAGE_MORE = {"camera": "a photo of a man with a camera on a tripod", "clock": "a photo of a clock",
                "coins": "a photo of old coins", "moon": "a photo of the moon",
                "hubble_deep_field": "a photo of galaxies in deep space", "brick": "a photo of a brick wall",
                "grass": "a photo of grass", "gravel": "a photo of gravel",
                "retina": "a photo of the retina of an eye",
                "immunohistochemistry": "a microscope photo of stained tissue"}
DARKNET = {"dog.jpg": "a photo of a dog", "eagle.jpg": "a photo of an eagle", "giraffe.jpg": "a photo of a giraffe",
           "horses.jpg": "a photo of horses", "kite.jpg": "a photo of people flying a kite",
           "person.jpg": "a photo of a person with a dog and a horse"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--darknet", help="folder holding darknet's sample photos")
    args = ap.parse_args()
    import skimage.data

    from scent import Filters, Index

    photos: list[tuple[Image.Image, str]] = [(Image.fromarray(getattr(skimage.data, n)()), q) for n, q in SKIMAGE.items()]
    if args.darknet:
        photos += [(Image.open(Path(args.darknet) / f).convert("RGB"), q) for f, q in DARKNET.items()
                   if (Path(args.darknet) / f).is_file()]
    first = len(photos)
    photos += [(Image.fromarray(getattr(skimage.data, n)()), q) for n, q in SKIMAGE_MORE.items()]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "photos"
        folder.mkdir()
        answers = []
        for i, (img, query) in enumerate(photos, start=1):
            name = f"IMG_{i:04d}.jpg"
            img.convert("RGB").save(folder / name, quality=90)
            answers.append((query, name))
        os.environ["SCENT_HOME"] = str(Path(tmp) / "home")
        with Index(folder) as idx:
            idx.update()
            ranks = []
            for query, name in answers:
                results = idx.search(query, k=len(answers), filters=Filters.build(kinds=["image"]))
                rank = next((r.rank for r in results if r.path == name), None)
                ranks.append(rank)
                print(f"{rank or '-':>3}  {query}  ({name})")
    for label, part in ((f"first {first} (objects)", ranks[:first]), (f"all {len(ranks)}", ranks)):
        n = len(part)
        print(f"{label} photos: recall@1 {sum(r == 1 for r in part) / n:.2f}, "
              f"recall@5 {sum(r is not None and r <= 5 for r in part) / n:.2f}")


if __name__ == "__main__":
    main()
