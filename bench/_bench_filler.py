"""Text content of the benchmark folder, part 4: about 30 distractor files that answer no query.

Shopping lists, diary entries, logs, configs and small CSVs whose words overlap the real topics
(bananas, chickpeas, candles, lakes, bikes, disks, latency, pools, receipts ...) without holding
any answer. Each entry: relative path -> (mtime day, text). Logs are generated with a fixed seed.
"""
from __future__ import annotations

import random

FILLER: dict[str, tuple[str, str]] = {}


def put(rel: str, day: str, text: str) -> None:
    assert rel not in FILLER, rel
    FILLER[rel] = (day, text.strip("\n") + "\n")


# ---- shopping lists ------------------------------------------------------------------------

put("misc/shopping/2025-01-11.txt", "2025-01-11", """
Shopping
- bananas (for the week)
- oat milk x2
- chickpeas, 3 tins
- onions, garlic, ginger
- rice, basmati
- cat food pouches, 24
- bin bags
""")

put("misc/shopping/2025-02-22.txt", "2025-02-22", """
- eggs
- spinach
- coconut milk
- lemons
- bread
- coffee beans (the dark one)
- light bulbs for the hallway, E27
""")

put("misc/shopping/2025-04-05.txt", "2025-04-05", """
Hardware shop:
- sandpaper, medium and fine
- wood filler
- picture hooks
Supermarket:
- apples, oranges, grapes
- yoghurt
- pasta, tomatoes
""")

put("misc/shopping/2025-06-28.txt", "2025-06-28", """
Camping list top-up
- gas canister
- midge spray
- oat bars
- plasters (blisters!)
- waterproof bag for the phone
""")

put("misc/shopping/2025-11-29.txt", "2025-11-29", """
Market stall, bring:
- card reader, charged
- float: 60 in coins and small notes
- bubble wrap and paper bags
- price labels
- folding table and the blue cloth
- candles for the display
""")

# ---- diary -----------------------------------------------------------------------------------

put("misc/diary/2024-09-15.md", "2024-09-15", """
# Sunday

Slept late. Unpacked the last boxes in the new flat and finally hung the mirror. The light in the
living room is lovely in the afternoon. Walked to the park and back; the trees are starting to
turn. Phoned Mum. Early night.
""")

put("misc/diary/2024-12-31.md", "2024-12-31", """
# New Year's Eve

Quiet evening at home with a few friends, lentil soup and too much cheese. We wrote down one
wish each for next year and put the papers in a jar. Mine: less screen time, more clay. Fireworks
from the window at midnight; the cat hid under the bed.
""")

put("misc/diary/2025-03-15.md", "2025-03-15", """
# Saturday

Rain all day. Cleaned the bike and oiled the chain, then gave up on going out. Baked something
with the last bananas. Watched two episodes of a detective series set on an island. Felt oddly
content.
""")

put("misc/diary/2025-05-21.md", "2025-05-21", """
# Wednesday

Long day at work: three meetings about the same thing. Took the long way home along the river to
clear my head. Someone had left a cake in the office kitchen with a note saying "help yourself";
I helped myself.
""")

put("misc/diary/2025-08-30.md", "2025-08-30", """
# Saturday

Swam in the reservoir with Ana, the water still cold. Picnic afterwards, then a lazy walk around
the edge of the water. Sunburnt nose. Pizza in the evening.
""")

put("misc/diary/2025-10-12.md", "2025-10-12", """
# Sunday

Potted up the last glaze tests. Two came out with pinholes; too thick, I think. Made soup. The
heating came on for the first time this autumn. Read on the sofa for hours.
""")

# ---- logs (seeded) ------------------------------------------------------------------------------


def _indexer_log() -> str:
    rng = random.Random(609)
    lines = []
    disk = 58.0
    for i in range(160):
        hh, mm, ss = 2 + i // 60, i % 60, rng.randrange(60)
        t = f"2025-06-09T{hh:02d}:{mm:02d}:{ss:02d}Z"
        disk += rng.uniform(-0.05, 0.12)
        if i % 20 == 7:
            lines.append(f"{t} WARN  marlin-indexer disk usage on marlin-data-{1 + i % 5} at {disk:.1f} percent")
        elif i % 33 == 5:
            lines.append(f"{t} INFO  marlin-indexer bulk request took {rng.randrange(800, 1900)} ms (slow)")
        else:
            docs = rng.randrange(200, 1200)
            lines.append(f"{t} INFO  marlin-indexer indexed batch of {docs} documents in {rng.randrange(40, 260)} ms")
    return "\n".join(lines)


def _api_log() -> str:
    rng = random.Random(210)
    lines = []
    paths = ["/v2/charges", "/v2/refunds", "/v2/charges/{id}", "/v2/merchants/{id}", "/healthz"]
    for i in range(180):
        t = f"2025-02-10T14:{i // 3:02d}:{(i * 20) % 60:02d}Z"
        p = paths[rng.randrange(len(paths))]
        status = 200 if rng.random() > 0.03 else rng.choice([400, 404, 409])
        ms = int(rng.lognormvariate(5.2, 0.35))
        lines.append(f"{t} tollgate-api method={'GET' if '{id}' in p or p == '/healthz' else 'POST'} "
                     f"path={p} status={status} duration_ms={ms} pool_in_use={rng.randrange(8, 31)}/60")
    return "\n".join(lines)


def _backup_log() -> str:
    lines = []
    rng = random.Random(77)
    for d in range(1, 29):
        size = 180 + d * 0.6 + rng.uniform(-2, 2)
        lines.append(f"2025-10-{d:02d} 03:00:01 backup-nas: starting rsync of /home/lena to nas:/backups/lena")
        lines.append(f"2025-10-{d:02d} 03:{rng.randrange(4, 19):02d}:{rng.randrange(60):02d} backup-nas: "
                     f"done, {rng.randrange(12, 900)} files changed, total {size:.1f} GB, exit 0")
    return "\n".join(lines)


put("logs/marlin-indexer-2025-06-09.log", "2025-06-09", _indexer_log())
put("logs/tollgate-api-2025-02-10.log", "2025-02-10", _api_log())
put("logs/backup-nas-2025-10.log", "2025-10-28", _backup_log())
put("logs/cron-2025-11.log", "2025-11-30", "\n".join(
    f"2025-11-{d:02d} 02:30:00 CRON[{4100 + d * 7}]: (lena) CMD (/home/lena/bin/rotate_logs.sh >/dev/null 2>&1)"
    for d in range(1, 31)))

# ---- config files -----------------------------------------------------------------------------

put("config/tollgate.yaml", "2025-02-14", """
# tollgate - payments API, production (EU)
service:
  name: tollgate-api
  port: 8443
  workers: 16
database:
  host: ledger-db-primary.internal
  name: ledger
  pool:
    max_pool_size: 80
    min_idle: 10
    acquire_timeout_ms: 500
http:
  read_timeout_ms: 3000
  idempotency_ttl_hours: 24
logging:
  level: info
""")

put("config/marlin.yml", "2025-06-12", """
cluster:
  name: marlin
  data_nodes: 5
disk:
  watermark_low: 75%
  watermark_high: 85%
  watermark_flood_stage: 95%
snapshots:
  repository: nightly
  schedule: "0 1 * * *"
  keep_days: 7
logging:
  level: info   # was debug until June, do not turn it back on
""")

put("config/nginx-shop.conf", "2025-05-06", """
server {
    listen 443 ssl http2;
    server_name shop.kilnandcrow.example;

    ssl_certificate     /etc/ssl/kilnandcrow/fullchain.pem;
    ssl_certificate_key /etc/ssl/kilnandcrow/privkey.pem;

    root /srv/kilnshop/public;
    client_max_body_size 20m;

    location /images/ {
        expires 30d;
        add_header Cache-Control "public";
    }

    location /api/ {
        proxy_pass http://127.0.0.1:8080;
        proxy_read_timeout 10s;
    }
}
""")

put("config/kilnshop.ini", "2025-05-06", """
[shop]
name = Kiln & Crow
currency = GBP
free_shipping_from = 60.00

[mail]
smtp_host = smtp.example.com
smtp_port = 587
from = orders@kilnandcrow.example

[images]
max_width = 1600
quality = 82
""")

put("config/docker-compose.yml", "2025-05-08", """
services:
  shop:
    image: kilnshop:1.8
    ports: ["8080:8080"]
    environment:
      - DATABASE_URL=postgres://shop@db/shop
    depends_on: [db]
  db:
    image: postgres:16
    volumes: ["dbdata:/var/lib/postgresql/data"]
volumes:
  dbdata: {}
""")

# ---- small CSVs -------------------------------------------------------------------------------


def _running_csv() -> str:
    rng = random.Random(1105)
    rows = ["date,distance_km,time_min,route"]
    routes = ["river loop", "park laps", "canal path", "hill repeats", "long run to the lake"]
    for i in range(40):
        m, d = 2 + i // 12, 1 + (i * 2) % 27
        km = round(rng.uniform(4.5, 18.0), 1)
        rows.append(f"2025-{m:02d}-{d:02d},{km},{int(km * rng.uniform(5.4, 6.3))},{routes[i % len(routes)]}")
    return "\n".join(rows)


def _plants_csv() -> str:
    plants = [("monstera", "living room", 7), ("pothos", "kitchen", 5), ("basil", "windowsill", 2),
              ("snake plant", "bedroom", 14), ("fern", "bathroom", 3), ("rosemary", "balcony", 4),
              ("fiddle leaf fig", "study", 8), ("spider plant", "hallway", 6)]
    rows = ["plant,room,water_every_days,last_watered"]
    for i, (p, r, n) in enumerate(plants):
        rows.append(f"{p},{r},{n},2025-11-{10 + i:02d}")
    return "\n".join(rows)


def _books_csv() -> str:
    rows = ["finished,title,author,stars",
            "2024-01-20,The Quiet Orchard,M. Adeyemi,4",
            "2024-02-28,Salt and Iron,R. Castell,3",
            "2024-04-02,A Year of Small Fires,J. Okonkwo,5",
            "2024-05-19,The Mapmaker's Daughter,E. Lindahl,4",
            "2024-07-07,Harbour Lights,S. Penrose,3",
            "2024-08-30,Nine Bridges,T. Haruki,4",
            "2024-10-12,The Glass Kiln,A. Morrow,5",
            "2024-12-27,Winter Letters,C. Duval,4"]
    return "\n".join(rows)


def _electricity_csv() -> str:
    # Meter readings the line chart (exports/figure_2.png) is drawn from; kept as readings, not
    # as a chart, so it is the word-level distractor of that picture.
    rows = ["month,reading_kwh,used_kwh"]
    use = [212, 198, 205, 176, 160, 151, 149, 155, 168, 190, 224, 241,
           431, 398, 322, 214, 168, 154, 150, 158, 181, 262, 388, 452]
    reading = 38000
    for i, u in enumerate(use):
        reading += u
        rows.append(f"{2024 + i // 12}-{1 + i % 12:02d},{reading},{u}")
    return "\n".join(rows)


def _mileage_csv() -> str:
    rows = ["date,odometer_km,litres,cost_gbp,station"]
    rng = random.Random(19)
    odo = 51200
    for i in range(14):
        odo += rng.randrange(380, 620)
        litres = round(rng.uniform(31, 42), 1)
        rows.append(f"2025-{1 + i * 11 // 14:02d}-{3 + (i * 5) % 25:02d},{odo},{litres},{litres * 1.46:.2f},"
                    f"{['Vale Street', 'Ringway', 'Harbour Road'][i % 3]}")
    return "\n".join(rows)


put("data/running-log-2025.csv", "2025-05-12", _running_csv())
put("data/plant-watering.csv", "2025-11-17", _plants_csv())
put("data/books-read-2024.csv", "2024-12-28", _books_csv())
put("data/electricity-readings.csv", "2025-12-31", _electricity_csv())
put("data/car-fuel.csv", "2025-11-03", _mileage_csv())

# ---- other notes ------------------------------------------------------------------------------

put("misc/todo.md", "2025-11-10", """
# To do

- [ ] Book the boiler service before December
- [ ] Renew the passport (expires in May)
- [x] Cancel the old phone contract
- [ ] Sort the photos from the summer into folders
- [ ] Fix the wobbly shelf in the study
- [ ] Send Ana the recipe she asked for
""")

put("misc/packing-list-iceland.md", "2025-05-14", """
# Packing list - Iceland

- waterproof jacket and trousers
- warm hat, gloves, two fleeces
- swimsuit (lagoons!)
- hiking boots, already worn in
- sunglasses: it stays light until midnight
- eye mask
- power bank, car charger, adapter
- reusable water bottle
""")

put("misc/quotes.txt", "2024-06-30", """
Things people said that I want to remember

"Measure twice, cut once." - my grandfather, every time
"You can't glaze your way out of a bad pot." - the pottery teacher
"If it hurts, do it more often." - a colleague, about deploys
"The best time to plant a tree was twenty years ago. The second best time is now."
""")

put("misc/podcasts.md", "2025-03-02", """
# Podcasts to try

- A weekly show about the history of everyday objects (the episode on bicycles!)
- Two engineers reading old incident reports and arguing about them
- A slow-travel podcast, episode about lighthouses of the north
- A cooking show that only uses five ingredients
""")

put("misc/wifi-and-devices.txt", "2025-01-05", """
Devices at home
- laptop (work), laptop (personal), desktop in the study
- two phones, one tablet
- TV, speaker in the kitchen
- printer (wired), NAS (wired)
Guest wifi: ask me for the password; it changes every three months.
""")

put("misc/ideas-for-the-shop.md", "2025-09-05", """
# Shop ideas

- A "seconds" section for mugs with small glaze faults, 30 percent off.
- Gift wrapping option at checkout.
- Newsletter once a month with a photo from the studio.
- Try a pop-up at the Christmas market again; it worked well.
- Better product photos: daylight, plain background, one mug in use.
""")
