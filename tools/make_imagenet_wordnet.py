"""Write src/scent/data/imagenet_wordnet.tsv: for each ImageNet-1k class, its WordNet 3.0 synset's
synonyms, gloss and hypernym chain, so a picture the classifier calls "ibex" is also described as
"wild goat of mountain areas ... having large recurved horns" and "buckeye" as "horse chestnut".

    cd /tmp && apt-get download wordnet-base && dpkg -x wordnet-base_*.deb wn
    .venv/bin/python tools/make_imagenet_wordnet.py /tmp/wn/usr/share/wordnet IDS [--out FILE]

WordNet is not installed for users (and scent downloads nothing), so the few hundred kilobytes the
describer needs are derived once and shipped, under WordNet 3.0's licence, whose notice the file
carries (it allows redistribution with that notice).

ImageNet-1k's classes are WordNet 3.0 noun synsets (class id n02417914 is the synset at byte offset
02417914 of data.noun), in the order of their ids. The ids are read from the published ILSVRC-2012
list, timm's imagenet_synsets.txt (Apache-2.0; `pip download timm==1.0.31 --no-deps`, then
`unzip timm-*.whl timm/data/_info/imagenet_synsets.txt`): the class names alone do not say which
synset is meant (of the synsets holding the word, taking the first above the previous class's id
picks the wrong one for 43 classes: "tabby" the female cat, "buckeye" the tree, "volcano" the
fissure). Each id is checked against src/scent/data/imagenet_classes.txt: its synset must hold
the class's name (torchvision's, made unique: "crane bird", "maillot tank suit").
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLASSES = ROOT / "src" / "scent" / "data" / "imagenet_classes.txt"
OUT = ROOT / "src" / "scent" / "data" / "imagenet_wordnet.tsv"
HYPERNYMS = 4  # levels of the chain kept; the describer says fewer (scent.classify)

NOTICE = """\
# WordNet 3.0 for the ImageNet-1k classes, one line per class in class-index order (line 1 after
# these comments is class 0): synset id, synonyms (|-separated), gloss, hypernym chain (the first
# synonym of each hypernym, nearest first, |-separated). Derived by tools/make_imagenet_wordnet.py
# from WordNet 3.0's data.noun (Debian package wordnet-base 1:3.0-37).
#
# WordNet Release 3.0. This software and database is being provided to you, the LICENSEE, by
# Princeton University under the following license. By obtaining, using and/or copying this
# software and database, you agree that you have read, understood, and will comply with these
# terms and conditions.:
#
# Permission to use, copy, modify and distribute this software and database and its
# documentation for any purpose and without fee or royalty is hereby granted, provided that you
# agree to comply with the following copyright notice and statements, including the disclaimer,
# and that the same appear on ALL copies of the software, database and documentation, including
# modifications that you make for internal use or for distribution.
#
# WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved.
#
# THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO
# REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT LIMITATION,
# PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANT- ABILITY OR FITNESS FOR
# ANY PARTICULAR PURPOSE OR THAT THE USE OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL
# NOT INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS.
#
# The name of Princeton University or Princeton may not be used in advertising or publicity
# pertaining to distribution of the software and/or database. Title to copyright in this
# software, database and any associated documentation shall at all times remain with Princeton
# University and LICENSEE agrees to preserve same.
"""


def read_nouns(data_noun: Path) -> dict[int, tuple[list[str], list[int], str]]:
    """offset -> (synonyms, hypernym offsets, gloss), from WordNet's data.noun."""
    synsets = {}
    for line in data_noun.read_text(encoding="latin-1").splitlines():
        if line.startswith("  "):  # the licence at the top of the file
            continue
        head, _, gloss = line.partition(" | ")
        fields = head.split()
        offset, count = int(fields[0]), int(fields[3], 16)
        words = [re.sub(r"\(.*\)$", "", w).replace("_", " ") for w in fields[4:4 + 2 * count:2]]
        at = 4 + 2 * count
        pointers = int(fields[at])
        hypernyms = [int(fields[at + 1 + 4 * i + 1]) for i in range(pointers)
                     if fields[at + 1 + 4 * i] in ("@", "@i") and fields[at + 1 + 4 * i + 2] == "n"]
        synsets[offset] = (words, hypernyms, gloss.strip())
    return synsets


def class_names() -> list[str]:
    return [line for line in CLASSES.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


# torchvision's names that are not a synonym of their synset as WordNet spells it (made unique).
_RENAMED = {"maillot tank suit": "tank suit", "crane bird": "crane"}


def check_ids(names: list[str], ids: list[int], synsets: dict) -> None:
    """Each class's synset holds its name: the id list and the name list are in the same order."""
    if len(ids) != len(names):
        raise SystemExit(f"{len(ids)} ids for {len(names)} classes")
    for i, (name, offset) in enumerate(zip(names, ids)):
        words = [w.lower() for w in synsets[offset][0]] if offset in synsets else []
        if _RENAMED.get(name, name).lower() not in words:
            raise SystemExit(f"class {i} {name!r}: synset n{offset:08d} is {words}")


def chain(offset: int, synsets: dict) -> list[str]:
    """The first synonym of each hypernym up the first hypernym path, nearest first."""
    said = []
    while len(said) < HYPERNYMS:
        hypernyms = synsets[offset][1]
        if not hypernyms:
            break
        offset = hypernyms[0]
        said.append(synsets[offset][0][0])
    return said


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("wordnet", type=Path, help="folder holding WordNet 3.0's data.noun")
    ap.add_argument("ids", type=Path, help="the 1000 ILSVRC-2012 ids (n01440764 ...), one a line, in class order")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    synsets = read_nouns(args.wordnet / "data.noun")
    names = class_names()
    ids = [int(line.split()[0][1:]) for line in args.ids.read_text().splitlines() if line.strip()]
    check_ids(names, ids, synsets)
    lines = [NOTICE.rstrip("\n")]
    for offset in ids:
        words, _, gloss = synsets[offset]
        fields = (f"n{offset:08d}", "|".join(dict.fromkeys(words)), gloss.replace("\t", " "),
                  "|".join(chain(offset, synsets)))
        lines.append("\t".join(fields))
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(ids)} classes)")


if __name__ == "__main__":
    main()
