"""Text content of the benchmark folder, part 3: code, an HTML article, CSV and JSON data.

Each entry: relative path -> (mtime day, text). Everything invented for this benchmark.
"""
from __future__ import annotations

import json

CODE: dict[str, tuple[str, str]] = {}


def put(rel: str, day: str, text: str) -> None:
    assert rel not in CODE, rel
    CODE[rel] = (day, text.strip("\n") + "\n")


# ============================================================================================
# Code
# ============================================================================================

put("code/payments/retry_client.py", "2025-02-24", '''
"""HTTP client for the charges endpoint with retries and idempotency keys."""
from __future__ import annotations

import random
import time
import uuid

import requests

RETRYABLE_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})


def compute_backoff_delay(attempt: int, base_delay: float = 0.2, max_delay: float = 8.0) -> float:
    """Exponential backoff with full jitter: a random delay in [0, min(max, base * 2**attempt)]."""
    ceiling = min(max_delay, base_delay * (2 ** attempt))
    return random.uniform(0.0, ceiling)


def is_retryable_status(status_code: int) -> bool:
    return status_code in RETRYABLE_STATUS


class PaymentRetryClient:
    def __init__(self, base_url: str, api_key: str, max_attempts: int = 4, timeout_s: float = 3.0):
        self.base_url = base_url.rstrip("/")
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {api_key}"
        self.max_attempts = max_attempts
        self.timeout_s = timeout_s

    def create_charge(self, amount_minor: int, currency: str, merchant_ref: str) -> dict:
        # The same key on every attempt: the server charges at most once.
        idempotency_key = str(uuid.uuid4())
        body = {"amount": amount_minor, "currency": currency, "merchant_ref": merchant_ref}
        last_error = None
        for attempt in range(self.max_attempts):
            try:
                resp = self.session.post(
                    f"{self.base_url}/v2/charges",
                    json=body,
                    headers={"Idempotency-Key": idempotency_key},
                    timeout=self.timeout_s,
                )
            except requests.Timeout as e:
                last_error = e
            else:
                if not is_retryable_status(resp.status_code):
                    resp.raise_for_status()
                    return resp.json()
                last_error = RuntimeError(f"status {resp.status_code}")
            time.sleep(compute_backoff_delay(attempt))
        raise RuntimeError(f"charge failed after {self.max_attempts} attempts") from last_error
''')

put("code/payments/pool_config.py", "2025-02-20", '''
"""Database pool settings for tollgate, checked at startup (action item from INC-2025-0214)."""
from __future__ import annotations

from dataclasses import dataclass

import yaml

MIN_POOL_SIZE_PROD = 20
MAX_POOL_SIZE = 200


class PoolConfigError(ValueError):
    pass


@dataclass(frozen=True)
class PoolSettings:
    max_pool_size: int
    min_idle: int
    acquire_timeout_ms: int


def load_pool_settings(path: str) -> PoolSettings:
    with open(path, encoding="utf-8") as f:
        raw = yaml.safe_load(f)["database"]["pool"]
    return PoolSettings(int(raw["max_pool_size"]), int(raw.get("min_idle", 5)),
                        int(raw.get("acquire_timeout_ms", 500)))


def validate_pool_settings(settings: PoolSettings, environment: str) -> None:
    """Refuse pool sizes that cannot carry production traffic, before the service starts."""
    floor = MIN_POOL_SIZE_PROD if environment == "production" else 1
    if not floor <= settings.max_pool_size <= MAX_POOL_SIZE:
        raise PoolConfigError(
            f"max_pool_size={settings.max_pool_size} is outside [{floor}, {MAX_POOL_SIZE}] "
            f"for {environment}")
    if settings.min_idle > settings.max_pool_size:
        raise PoolConfigError("min_idle is larger than max_pool_size")
    if settings.acquire_timeout_ms > 2000:
        raise PoolConfigError("acquire_timeout_ms above 2 s hides pool exhaustion; keep it low")
''')

put("code/web/cartTotals.ts", "2025-05-06", '''
// Cart totals for the Kiln & Crow shop front.

export interface CartLine {
  sku: string;
  unitPricePence: number;
  quantity: number;
}

export interface DiscountCode {
  code: string;
  percentOff?: number;
  fixedOffPence?: number;
  minimumSpendPence?: number;
}

const VAT_RATE = 0.2;
const FREE_SHIPPING_FROM_PENCE = 6000;
const SHIPPING_PENCE = 495;

export function calculateSubtotal(lines: CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.unitPricePence * line.quantity, 0);
}

export function applyDiscountCode(subtotalPence: number, discount?: DiscountCode): number {
  if (!discount) return subtotalPence;
  if (discount.minimumSpendPence && subtotalPence < discount.minimumSpendPence) return subtotalPence;
  if (discount.percentOff) return Math.round(subtotalPence * (1 - discount.percentOff / 100));
  if (discount.fixedOffPence) return Math.max(0, subtotalPence - discount.fixedOffPence);
  return subtotalPence;
}

export function calculateCartTotal(lines: CartLine[], discount?: DiscountCode) {
  const subtotal = calculateSubtotal(lines);
  const afterDiscount = applyDiscountCode(subtotal, discount);
  const shipping = afterDiscount >= FREE_SHIPPING_FROM_PENCE ? 0 : SHIPPING_PENCE;
  const total = afterDiscount + shipping;
  const vatIncluded = Math.round(total - total / (1 + VAT_RATE));
  return { subtotal, afterDiscount, shipping, total, vatIncluded };
}

export function formatPrice(pence: number): string {
  return `\\u00a3${(pence / 100).toFixed(2)}`;
}
''')

put("code/web/debounce.js", "2025-05-02", '''
// Small timing helpers for the search box on the shop front.

export function debounce(fn, waitMs = 250) {
  let timerId = null;
  return function debounced(...args) {
    clearTimeout(timerId);
    timerId = setTimeout(() => fn.apply(this, args), waitMs);
  };
}

export function throttle(fn, intervalMs = 1000) {
  let lastCall = 0;
  return function throttled(...args) {
    const now = Date.now();
    if (now - lastCall >= intervalMs) {
      lastCall = now;
      fn.apply(this, args);
    }
  };
}

export function attachSearchBox(inputEl, onQuery) {
  const handler = debounce((event) => onQuery(event.target.value.trim()), 300);
  inputEl.addEventListener("input", handler);
  return () => inputEl.removeEventListener("input", handler);
}
''')

put("code/sql/monthly_revenue.sql", "2025-03-14", '''
-- Revenue per calendar month for the finance dashboard, refunds subtracted.
-- Amounts are in minor units (pence/cents); convert in the report.

CREATE OR REPLACE VIEW monthly_revenue AS
SELECT
    date_trunc('month', c.captured_at)          AS month,
    c.currency,
    count(*)                                    AS charge_count,
    sum(c.amount_minor)                         AS gross_minor,
    coalesce(sum(r.amount_minor), 0)            AS refunded_minor,
    sum(c.amount_minor) - coalesce(sum(r.amount_minor), 0) AS net_minor
FROM charges c
LEFT JOIN refunds r ON r.charge_id = c.id AND r.status = 'succeeded'
WHERE c.status = 'captured'
GROUP BY 1, 2;

-- Top ten merchants by net revenue in the last full month.
SELECT m.display_name, sum(c.amount_minor) AS net_minor
FROM charges c
JOIN merchants m ON m.id = c.merchant_id
WHERE c.captured_at >= date_trunc('month', now()) - interval '1 month'
  AND c.captured_at <  date_trunc('month', now())
GROUP BY m.display_name
ORDER BY net_minor DESC
LIMIT 10;
''')

put("code/sql/003_add_invoice_status.sql", "2025-04-22", '''
-- Migration 003: invoices get an explicit status instead of the paid_at IS NULL check.

BEGIN;

CREATE TYPE invoice_status AS ENUM ('draft', 'sent', 'paid', 'overdue', 'void');

ALTER TABLE invoices
    ADD COLUMN status invoice_status NOT NULL DEFAULT 'draft',
    ADD COLUMN status_changed_at timestamptz;

UPDATE invoices SET status = 'paid', status_changed_at = paid_at WHERE paid_at IS NOT NULL;
UPDATE invoices SET status = 'sent' WHERE paid_at IS NULL AND sent_at IS NOT NULL;

CREATE INDEX idx_invoices_status_due ON invoices (status, due_date);

COMMIT;
''')

put("code/scripts/rotate_logs.sh", "2024-11-12", '''
#!/usr/bin/env bash
# Compress application logs older than a week and delete compressed ones older than 30 days.
set -euo pipefail

LOG_DIR="${LOG_DIR:-/var/log/kilnshop}"
COMPRESS_AFTER_DAYS=7
DELETE_AFTER_DAYS=30

compress_old_logs() {
  find "$LOG_DIR" -name '*.log' -mtime +"$COMPRESS_AFTER_DAYS" -print0 | xargs -0 -r gzip -9
}

delete_ancient_logs() {
  find "$LOG_DIR" -name '*.log.gz' -mtime +"$DELETE_AFTER_DAYS" -delete
}

compress_old_logs
delete_ancient_logs
echo "log rotation done: $(du -sh "$LOG_DIR" | cut -f1) left in $LOG_DIR"
''')

put("code/scripts/snapshot_cleanup.sh", "2025-06-12", '''
#!/usr/bin/env bash
# Delete search cluster snapshots beyond the retention window, oldest first.
# Used by hand during INC-2025-0611; now also runs nightly from cron.
set -euo pipefail

CLUSTER_URL="${CLUSTER_URL:-http://marlin-coord-1:9200}"
REPO="${SNAPSHOT_REPO:-nightly}"
KEEP_DAYS="${KEEP_DAYS:-7}"
DRY_RUN="${DRY_RUN:-0}"

list_snapshots() {
  curl -sf "$CLUSTER_URL/_snapshot/$REPO/_all" | jq -r '.snapshots[] | "\\(.start_time_in_millis) \\(.snapshot)"'
}

cutoff_millis() {
  echo $(( ($(date +%s) - KEEP_DAYS * 86400) * 1000 ))
}

delete_snapshot() {
  local name="$1"
  if [[ "$DRY_RUN" == "1" ]]; then
    echo "would delete $name"
  else
    curl -sf -X DELETE "$CLUSTER_URL/_snapshot/$REPO/$name" > /dev/null
    echo "deleted $name"
  fi
}

cutoff=$(cutoff_millis)
list_snapshots | sort -n | while read -r started name; do
  if (( started < cutoff )); then
    delete_snapshot "$name"
  fi
done
''')

put("code/healthcheck/main.go", "2025-06-20", '''
// healthcheck polls every node of the search cluster and reports disk usage and reachability.
package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"
)

type ClusterNode struct {
	Name        string  `json:"name"`
	Host        string  `json:"host"`
	DiskUsedPct float64 `json:"disk_used_percent"`
}

const warnDiskPct = 75.0

func pingNode(client *http.Client, node ClusterNode) error {
	resp, err := client.Get("http://" + node.Host + ":9200/")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %d", node.Name, resp.StatusCode)
	}
	return nil
}

func checkDiskUsage(nodes []ClusterNode) []string {
	var warnings []string
	for _, n := range nodes {
		if n.DiskUsedPct >= warnDiskPct {
			warnings = append(warnings, fmt.Sprintf("%s disk at %.0f%%", n.Name, n.DiskUsedPct))
		}
	}
	return warnings
}

func loadNodes(path string) ([]ClusterNode, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nodes []ClusterNode
	return nodes, json.Unmarshal(data, &nodes)
}

func main() {
	nodes, err := loadNodes("nodes.json")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot read nodes.json:", err)
		os.Exit(2)
	}
	client := &http.Client{Timeout: 3 * time.Second}
	failed := 0
	for _, n := range nodes {
		if err := pingNode(client, n); err != nil {
			fmt.Println("DOWN", n.Name, err)
			failed++
		}
	}
	for _, w := range checkDiskUsage(nodes) {
		fmt.Println("WARN", w)
	}
	if failed > 0 {
		os.Exit(1)
	}
}
''')

put("code/tools/dedupe_contacts.py", "2025-01-11", '''
"""Merge duplicate entries in an exported address book (CSV with name, phone, email)."""
from __future__ import annotations

import csv
import re
import sys
from collections import OrderedDict


def normalize_phone_number(raw: str, default_country: str = "44") -> str:
    """'01632 960 471' -> '+441632960471'; keeps numbers that already have a + prefix."""
    digits = re.sub(r"[^\\d+]", "", raw)
    if digits.startswith("+"):
        return digits
    if digits.startswith("00"):
        return "+" + digits[2:]
    if digits.startswith("0"):
        return f"+{default_country}{digits[1:]}"
    return digits


def contact_key(row: dict) -> str:
    email = row.get("email", "").strip().lower()
    return email or normalize_phone_number(row.get("phone", ""))


def merge_duplicate_contacts(rows: list[dict]) -> list[dict]:
    merged: "OrderedDict[str, dict]" = OrderedDict()
    for row in rows:
        key = contact_key(row)
        if key in merged:
            for field, value in row.items():
                if value and not merged[key].get(field):
                    merged[key][field] = value
        else:
            merged[key] = dict(row)
    return list(merged.values())


if __name__ == "__main__":
    with open(sys.argv[1], newline="", encoding="utf-8") as f:
        contacts = merge_duplicate_contacts(list(csv.DictReader(f)))
    writer = csv.DictWriter(sys.stdout, fieldnames=["name", "phone", "email"])
    writer.writeheader()
    writer.writerows(contacts)
''')

put("code/tools/photo_rename.py", "2024-12-29", '''
"""Rename photos to their capture time, e.g. IMG_2041.jpg -> 2024-11-03_14-22-08.jpg."""
from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

from PIL import Image

DATETIME_ORIGINAL = 0x9003


def read_capture_time(path: Path) -> datetime | None:
    with Image.open(path) as img:
        stamp = img.getexif().get_ifd(0x8769).get(DATETIME_ORIGINAL)
    return datetime.strptime(stamp, "%Y:%m:%d %H:%M:%S") if stamp else None


def plan_renames(folder: Path) -> list[tuple[Path, Path]]:
    plans = []
    for path in sorted(folder.glob("*.jpg")):
        taken = read_capture_time(path)
        if taken:
            plans.append((path, path.with_name(taken.strftime("%Y-%m-%d_%H-%M-%S") + ".jpg")))
    return plans


if __name__ == "__main__":
    for old, new in plan_renames(Path(sys.argv[1])):
        print(f"{old.name} -> {new.name}")
''')

# ============================================================================================
# HTML article
# ============================================================================================

put("web/saved/heat-pumps-explained.html", "2025-02-08", """
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Heat pumps, explained without the jargon - The Quiet House</title>
<style>
  body { font-family: Georgia, serif; max-width: 44em; margin: 2em auto; color: #222; }
  nav a { margin-right: 1em; }
</style>
<script>window.qhAnalytics = window.qhAnalytics || []; qhAnalytics.push("view");</script>
</head>
<body>
<nav><a href="/">Home</a> <a href="/energy">Energy</a> <a href="/newsletter">Newsletter</a></nav>
<article>
<h1>Heat pumps, explained without the jargon</h1>
<p>By Harriet Olawale, 6 February 2025</p>

<p>A heat pump works like a fridge in reverse. Instead of pushing heat out of a cold box, it
pulls heat out of the outside air, even on a frosty day, and moves it into your radiators and hot
water tank. Because it moves heat rather than making it, one unit of electricity gives you about
three units of heat. That ratio is called the coefficient of performance.</p>

<h2>Will my radiators be big enough?</h2>
<p>Heat pumps run best at lower water temperatures, around 45 degrees instead of the 70 of a gas
boiler. The radiators feel warm rather than hot, and the house is heated more slowly and more
evenly. Some rooms need a larger radiator; an installer calculates the heat loss room by room
before quoting.</p>

<h2>What happens to the electricity bill?</h2>
<p>Your gas bill disappears and your electricity use goes up, mostly in winter. In a typical
three-bedroom house, expect electricity use to roughly double between December and February, and
to change little in summer. A tariff with cheaper night rates helps.</p>

<h2>Noise, space and maintenance</h2>
<p>The outdoor unit is about the size of a washing machine and hums quietly, comparable to a
fridge. It needs a yearly check, clear space around it, and the filter cleaned now and then.</p>

<h2>Is it worth it?</h2>
<p>If your house is reasonably insulated, yes: running costs are similar to gas, emissions fall by
well over half, and grants cover a good share of the installation.</p>
</article>
<footer>The Quiet House - practical notes on a calmer, warmer home.</footer>
</body>
</html>
""")

put("web/saved/sourdough-troubleshooting.html", "2024-10-15", """
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Why is my sourdough flat? Seven fixes - Crumb Notes</title>
</head>
<body>
<article>
<h1>Why is my sourdough flat? Seven fixes</h1>
<p>A flat loaf is almost always about the starter or the proof, rarely about the oven.</p>
<h2>1. The starter is not ready</h2>
<p>Use it at its peak, four to eight hours after feeding, when it has doubled and smells of yoghurt
rather than nail polish.</p>
<h2>2. Under-proofed dough</h2>
<p>The bulk ferment should go on until the dough has grown by about half and feels airy. In a cold
kitchen that can take eight hours.</p>
<h2>3. Over-proofed dough</h2>
<p>If the dough collapses when you score it, it proofed too long. Shorten the cold retard.</p>
<h2>4. Weak shaping</h2>
<p>Build surface tension: a tight ball that holds its shape on the bench.</p>
<h2>5. Too much water</h2>
<p>Start at 70 percent hydration and go higher only once shaping feels easy.</p>
<h2>6. No steam</h2>
<p>Bake in a covered pot for the first 20 minutes.</p>
<h2>7. Oven not hot enough</h2>
<p>Preheat the pot for 45 minutes at 250 degrees.</p>
</article>
</body>
</html>
""")

# ============================================================================================
# CSV and JSON data
# ============================================================================================

EXPENSES = [
    # date, merchant, category, amount_gbp, payment, note
    ("2025-01-01", "Marsh & Pryce Lettings", "rent", "1325.00", "standing order", "January rent"),
    ("2025-01-04", "Greenleaf Market", "groceries", "52.30", "debit card", ""),
    ("2025-01-11", "Greenleaf Market", "groceries", "38.75", "debit card", ""),
    ("2025-01-15", "Northmere Energy", "utilities", "96.40", "direct debit", "electricity and gas"),
    ("2025-01-22", "Pelham Leisure", "sport", "42.00", "direct debit", "gym"),
    ("2025-02-01", "Marsh & Pryce Lettings", "rent", "1325.00", "standing order", "February rent"),
    ("2025-02-07", "Sparkwise Electrical", "home", "768.00", "bank transfer", "kitchen circuit and sockets"),
    ("2025-02-08", "Greenleaf Market", "groceries", "61.10", "debit card", ""),
    ("2025-02-15", "Northmere Energy", "utilities", "104.90", "direct debit", "electricity and gas"),
    ("2025-02-22", "Greenleaf Market", "groceries", "44.05", "debit card", ""),
    ("2025-03-01", "Marsh & Pryce Lettings", "rent", "1365.00", "standing order", "March rent"),
    ("2025-03-05", "Northmere Borough Council", "car", "85.00", "debit card", "resident parking permit"),
    ("2025-03-08", "Greenleaf Market", "groceries", "57.60", "debit card", ""),
    ("2025-03-15", "Northmere Energy", "utilities", "88.20", "direct debit", "electricity and gas"),
    ("2025-03-22", "Spoke & Sprocket", "transport", "41.50", "debit card", "chain and brake pads"),
    ("2025-03-29", "Greenleaf Market", "groceries", "47.85", "debit card", ""),
    ("2025-04-01", "Marsh & Pryce Lettings", "rent", "1365.00", "standing order", "April rent"),
    ("2025-04-03", "Cloudnest Hosting", "shop", "50.40", "credit card", "March hosting"),
    ("2025-04-12", "Greenleaf Market", "groceries", "49.90", "debit card", ""),
    ("2025-04-19", "Hobbs Hardware", "home", "63.20", "debit card", ""),
    ("2025-05-01", "Marsh & Pryce Lettings", "rent", "1365.00", "standing order", "May rent"),
    ("2025-05-02", "Cloudnest Hosting", "shop", "64.80", "credit card", "April hosting"),
    ("2025-05-02", "Northquay Air", "travel", "186.40", "credit card", "flights Geneva July"),
    ("2025-05-11", "Northmere Riverside Half", "sport", "32.00", "credit card", "race entry"),
    ("2025-05-17", "Greenleaf Market", "groceries", "55.35", "debit card", ""),
    ("2025-06-01", "Marsh & Pryce Lettings", "rent", "1365.00", "standing order", "June rent"),
    ("2025-06-14", "Greenleaf Market", "groceries", "43.20", "debit card", ""),
    ("2025-06-21", "Clayworks Supplies", "shop", "128.00", "credit card", "stoneware clay 4 bags, glaze"),
    ("2025-07-01", "Marsh & Pryce Lettings", "rent", "1365.00", "standing order", "July rent"),
    ("2025-07-05", "Lac Bleu Velos", "travel", "56.00", "credit card", "bike hire Annecy"),
    ("2025-07-19", "Lumen Translations", "shop", "259.20", "bank transfer", "French shop pages"),
    ("2025-07-26", "Crumb & Co", "eating out", "38.50", "debit card", ""),
    ("2025-08-01", "Marsh & Pryce Lettings", "rent", "1365.00", "standing order", "August rent"),
    ("2025-08-08", "Fellside Camping", "travel", "72.00", "credit card", "3 nights pitch"),
    ("2025-08-23", "Greenleaf Market", "groceries", "58.40", "debit card", ""),
    ("2025-09-01", "Marsh & Pryce Lettings", "rent", "1365.00", "standing order", "September rent"),
    ("2025-09-12", "Fixwell Repair", "electronics", "189.00", "debit card", "laptop screen"),
    ("2025-09-20", "Greenleaf Market", "groceries", "62.15", "debit card", ""),
    ("2025-10-01", "Marsh & Pryce Lettings", "rent", "1365.00", "standing order", "October rent"),
    ("2025-10-14", "Clinique des Acacias", "pets", "62.00", "credit card", "Biscuit, vaccination"),
    ("2025-10-14", "Ravenmoor Insurance", "car", "379.00", "credit card", "annual policy"),
    ("2025-10-23", "Northline Rail", "travel", "94.30", "credit card", "Leeds return, OpsNorth"),
    ("2025-11-01", "Marsh & Pryce Lettings", "rent", "1365.00", "standing order", "November rent"),
    ("2025-11-15", "Greenleaf Market", "groceries", "71.80", "debit card", "dinner party"),
    ("2025-11-29", "Northmere Christmas Market", "shop", "60.00", "cash", "stall fee"),
    ("2025-12-01", "Marsh & Pryce Lettings", "rent", "1365.00", "standing order", "December rent"),
    ("2025-12-06", "Greenleaf Market", "groceries", "66.25", "debit card", ""),
    ("2025-12-13", "Northmere Energy", "utilities", "131.70", "direct debit", "electricity and gas"),
]


def expenses_csv() -> str:
    lines = ["date,merchant,category,amount_gbp,payment,note"]
    for row in EXPENSES:
        lines.append(",".join(f'"{c}"' if "," in c else c for c in row))
    return "\n".join(lines) + "\n"


SUBSCRIPTIONS = {
    "owner": "Lena Varga",
    "currency": "GBP",
    "updated": "2025-11-20",
    "subscriptions": [
        {"name": "Streamly", "kind": "video streaming", "monthly": 10.99, "renews": "2025-12-03",
         "account": "lena.varga@example.com", "note": "shared with Ana"},
        {"name": "Tunebox", "kind": "music", "monthly": 11.99, "renews": "2025-12-17",
         "account": "lena.varga@example.com"},
        {"name": "Pelham Leisure", "kind": "gym", "monthly": 42.00, "renews": "2026-01-22",
         "contract_end": "2026-01-21", "note": "cancel in December if not going twice a week"},
        {"name": "Vaultbox 2TB", "kind": "cloud storage", "yearly": 79.99, "renews": "2026-03-09",
         "note": "photo backup from the NAS"},
        {"name": "The Weekly Ledger", "kind": "newspaper", "monthly": 6.50, "renews": "2025-12-01"},
        {"name": "Cloudnest Hosting", "kind": "web hosting", "monthly": 54.00, "renews": "2025-12-01",
         "note": "Kiln & Crow shop: two servers plus block storage"},
        {"name": "Lingoleaf", "kind": "language app", "yearly": 59.00, "renews": "2026-02-14",
         "note": "Spanish, streak 212 days"},
    ],
}


def subscriptions_json() -> str:
    return json.dumps(SUBSCRIPTIONS, indent=2, ensure_ascii=False) + "\n"
