#!/usr/bin/env bash
# Nightly backup of the picture library to the NAS in the hallway cupboard.
# Run from cron at 02:30:  30 2 * * * $HOME/bin/backup_photos.sh
set -euo pipefail

SRC="$HOME/Pictures/"
NAS_HOST="nas.home.arpa"
DEST="backup@${NAS_HOST}:/volume1/pictures/"
LOG="$HOME/.local/state/backup_photos.log"
KEEP_DAYS=30

if ! ping -c 1 -W 2 "$NAS_HOST" >/dev/null 2>&1; then
    echo "$(date -Is) NAS not reachable, skipping" >>"$LOG"
    exit 0
fi

# Mirror the library; deleted files go to a dated folder instead of disappearing.
rsync -a --delete \
    --backup --backup-dir="../pictures-deleted/$(date +%F)" \
    --exclude '.thumbnails/' --exclude '*.tmp' \
    "$SRC" "$DEST" >>"$LOG" 2>&1

# Prune deleted-file folders older than KEEP_DAYS days on the NAS.
ssh "backup@${NAS_HOST}" \
    "find /volume1/pictures-deleted -mindepth 1 -maxdepth 1 -mtime +${KEEP_DAYS} -exec rm -rf {} +"

echo "$(date -Is) backup finished" >>"$LOG"
