"""Text content of the benchmark folder, part 1: English notes (work, recipes, travel, personal).

Everything here is invented: people, companies, addresses, numbers. Used by make_bench.py.
Each entry: relative path -> (mtime day, text).
"""
from __future__ import annotations

NOTES: dict[str, tuple[str, str]] = {}


def note(rel: str, day: str, text: str) -> None:
    assert rel not in NOTES, rel
    NOTES[rel] = (day, text.strip("\n") + "\n")


# ============================================================================================
# Work: two deliberately similar postmortems
# ============================================================================================

note("notes/work/postmortem-2025-02-14.md", "2025-02-17", """
# Postmortem: INC-2025-0214 - slow checkouts on the payments API

Status: final. Author: Lena Varga. Reviewed by: Priya Nair, Tomasz Wrobel.

## Summary

On Friday 14 February 2025, between 09:52 and 11:06 UTC, the payments API (tollgate) answered
slowly. The 99th percentile response time of the `POST /v2/charges` endpoint rose from about
240 ms to 4.8 seconds, and 3.1 percent of card payments timed out at the merchants' end. No money
was lost and no payment was charged twice, thanks to idempotency keys.

## Impact

- 74 minutes of degraded service for all merchants in the EU region.
- About 18,400 payment attempts failed with a timeout; most merchants retried successfully.
- 212 support tickets; two large merchants asked for a written incident report.

## Timeline (UTC)

- 09:41 A configuration change for tollgate is deployed (change CHG-8812). It was meant to raise
  the database connection pool from 60 to 80 connections, but it set `max_pool_size` to 6
  because of a missing digit.
- 09:52 The latency alert fires: p99 above 1 second for 5 minutes.
- 10:05 The on-call engineer (me) sees requests queueing for database connections. The database
  itself looks healthy (CPU at 22 percent, no slow queries).
- 10:31 We suspect the deploy and compare the config with the previous version.
- 10:48 Rollback of CHG-8812 starts.
- 11:06 Response times back to normal. Incident closed at 11:30 after 24 minutes of watching.

## Root cause

The pool size is read from a YAML file without any validation. A value of 6 is legal, so nothing
stopped the deploy. With only six connections, each request waited in the pool queue, and that
wait (not the database) caused the spike. The canary check only compared error rates, not
latency, so it passed.

## What went well

- Idempotency keys prevented every double charge.
- The alert fired eleven minutes after the deploy.

## What went badly

It took 39 minutes to connect the spike to the deploy, because the deploy log and the latency
graph live in different tools.

## Action items

1. Validate pool settings at startup and refuse values below 20 in production (owner: Lena;
   done in `pool_config.py`).
2. Canary analysis compares p99 latency with the baseline, not only errors (owner: Tomasz).
3. Show deploy markers on the latency dashboard (owner: Priya).
4. Alert when more than 80 percent of pool connections are busy for 3 minutes.
""")

note("notes/work/postmortem-2025-06-11.md", "2025-06-16", """
# Postmortem: INC-2025-0611 - search cluster ran out of disk

Status: final. Author: Lena Varga. Reviewed by: Priya Nair, Oluwaseun Adebayo.

## Summary

On Wednesday 11 June 2025, from 06:58 to 09:38 UTC, the product search cluster (marlin) stopped
accepting updates. Three of the five data nodes crossed the 95 percent flood-stage disk watermark
and the cluster marked every index read-only. Searches still worked, but new and changed products
did not show up for 2 hours 40 minutes, and search latency was higher than usual while shards
were being moved between nodes.

## Impact

- Merchant catalogue changes were delayed by up to 2 h 40 min; about 96,000 updates queued.
- Search p99 latency rose from 120 ms to 650 ms during shard relocation.
- No data lost: the indexing queue kept every update and replayed it.

## Timeline (UTC)

- 28 May: the nightly snapshot retention job starts failing after a credentials rotation. Nobody
  notices, because the job's failures only go to a log file.
- 10 June 22:00: a planned full reindex of the catalogue starts; it temporarily doubles the size
  of the product index.
- 11 June 06:58: marlin-data-2 reaches 95 percent disk; indices become read-only.
- 07:20: on-call (Oluwaseun) is paged by the indexing backlog alert.
- 08:05: cause found: fourteen days of old snapshots on local disk, plus the reindex.
- 08:40: old snapshots deleted by hand with `snapshot_cleanup.sh`; read-only block removed.
- 09:38: backlog drained, incident closed.

## Root cause

The retention job had failed silently for 14 days, so snapshots piled up on the data nodes. The
reindex then pushed three nodes over the flood-stage watermark. Our disk alert was set at 90
percent and only paged during office hours.

## What went well

- No updates were lost.
- The cleanup script worked the first time.

## What went badly

The disk warnings at 85 percent had been visible on the dashboard since 8 June, but nobody
looked. Debug logging, left on since an investigation in May, wrote 30 GB of logs per node
per day.

## Action items

1. Disk alert at 75 percent, paging at any hour (owner: Oluwaseun).
2. The retention job reports failures to the team channel; a missing run for 24 hours pages
   (owner: Lena).
3. Snapshots go to object storage instead of local disk (owner: Priya, Q3).
4. Turn debug logging off and add a check for it in the deploy pipeline.
""")

# ============================================================================================
# Work: meetings and other notes
# ============================================================================================

note("notes/work/2025-01-20-planning-q1.md", "2025-01-20", """
# Platform team - Q1 planning, 20 January 2025

Attendees: Priya Nair (manager), Tomasz Wrobel, Oluwaseun Adebayo, Mei Tanaka, Lena Varga (notes)

## Priorities for the quarter

1. PCI DSS audit in the week of 17 March: evidence collection, access reviews, firewall rules.
2. Move the marlin search cluster to new hardware in the Frankfurt data centre: five data nodes
   with 4 TB NVMe each instead of 2 TB.
3. Fewer pages. On-call got 143 pages in Q4, 61 of them between midnight and 6 am. Goal: under
   80 pages, and no page without a runbook.

## Discussion

Mei asked whether the hardware move can wait until after the audit. Agreed: the new nodes are
racked in February and the data moves in April.

Tomasz proposed deleting the 30 alerts that nobody acted on in the last six months. Everyone
agreed, with two weeks' notice in the team channel first.

## Decisions

- Audit first; the cluster move starts on 1 April.
- Alert clean-up: list ready by 31 January, deletion on 14 February.
- Budget approved for trialling a second monitoring product (up to 6,000 a year).

## Action items

- Lena: collect access review evidence for the audit by 28 February.
- Oluwaseun: capacity numbers for the new cluster.
- Tomasz: the alert clean-up list.
- Mei: a runbook template.
""")

note("notes/work/2025-04-03-monitoring-vendors.md", "2025-04-03", """
# Monitoring vendor review, 3 April 2025

Attendees: Priya Nair, Tomasz Wrobel, Lena Varga

We trialled two hosted monitoring products for four weeks each: Lumeo and Gridwatch.

## Lumeo

- Price: 31 per host per month; for 140 hosts about 52,000 a year. Over budget.
- Good: beautiful dashboards, quick setup with their Kubernetes operator.
- Bad: log search gets slow beyond seven days; no EU-only data residency.

## Gridwatch

- Price: 22 per host per month plus 0.10 per GB of logs; estimated 41,000 a year.
- Good: deploy markers on every graph, which would have saved us half an hour in the February
  incident; data stays in Frankfurt.
- Bad: the alert rule editor is clumsy, and single sign-on costs extra.

## Decision

Gridwatch, one-year contract starting 1 May. Tomasz tries to get single sign-on into the base
price.

## Follow-ups

- Lena: move the 25 most used dashboards by the end of May.
- Priya: sign the contract after legal has reviewed the data processing agreement.
""")

note("notes/work/2025-09-17-team-offsite.md", "2025-09-18", """
# Team offsite, 17 September 2025

Harrow Square office, room 5.02, 09:30 to 17:00.

## Retro of the last six months

- Went well: pages down from 143 to 71 per quarter; the cluster move finished a week early;
  the Gridwatch dashboards are used every day.
- Went badly: the June incident; too many meetings on Thursdays; the audit evidence was
  collected in a rush.

## On-call

From 1 November we switch to a follow-the-sun rotation with the Singapore team. Each side covers
twelve hours, with handovers at 08:00 and 20:00 London time. Weekend shifts are paid 250 per day.
Nobody is on call for more than one week in six.

## Learning

Everyone gets two learning days this quarter. Mei and Lena give an internal talk on writing
good postmortems in October.

## Team dinner

Casa Lupita, table for 11 at 19:30.
""")

note("notes/work/oncall-handover-2025-06-13.txt", "2025-06-13", """
ON-CALL HANDOVER   Fri 13 June 2025 -> Mon 16 June 2025
From: Lena Varga   To: Mei Tanaka

Open issues
1. marlin: the new disk alert thresholds are not deployed yet. Keep an eye on marlin-data-2,
   currently at 71 percent. The cleanup script is in the ops repo if it climbs again.
2. Flaky test in ledger-sync: test_settlement_rounding fails about one run in twenty.
   Re-run the pipeline; ticket PLAT-2291 is open for a real fix.
3. The TLS certificate for api.brightwell.example expires on 1 July. Renewal is scheduled for
   Tuesday, see the runbook in notes/work.
4. The nightly export to the accounting system was 40 minutes late on Thursday. No action.

Otherwise a quiet week: 9 pages, 2 of them at night.
""")

note("notes/work/1-1-priya.md", "2025-07-08", """
# 1:1 with Priya - running notes

## 8 July 2025

- Promotion to senior engineer: Priya supports putting my case forward in the October cycle.
  I need two examples of leading cross-team work: the Gridwatch migration and the new
  postmortem process.
- Conference: my talk "Boring postmortems" was accepted at OpsNorth in Leeds on 23 October.
  Travel is approved; book the train early.
- Feedback: write shorter design documents and lead with the decision.

## 10 June 2025

- Workload: too many interruptions. Agreed that I skip the Thursday architecture forum for a
  month.
- Priya reminded me to declare the pottery shop as a side business. Done on 12 June.
""")

note("notes/work/runbook-tls-renewal.md", "2025-06-17", """
# Runbook: renewing the certificate for api.brightwell.example

Certificates are issued by our internal CA through `certctl`. They last 90 days. The
certificate for the public API is the only one that still needs a manual step, because the
load balancer does not pick up new files by itself.

## Steps

1. Check the current expiry date:
   `certctl show api.brightwell.example | grep not_after`
2. Request the new certificate (valid for 90 days):
   `certctl issue --name api.brightwell.example --san api-eu.brightwell.example`
3. Upload it to the load balancer pool `lb-public-eu`:
   `lbctl cert upload --pool lb-public-eu --file api.pem --key api.key`
4. Switch the listener to the new certificate and keep the old one for one day.
5. Check from outside: `openssl s_client -connect api.brightwell.example:443` must show the new
   expiry date.
6. Put the next renewal in the team calendar 14 days before expiry.

If step 3 fails with "chain incomplete", append the intermediate certificate to api.pem.
""")

note("notes/work/interview-feedback-2025-03.md", "2025-03-11", """
# Interview feedback - backend engineer, candidate 2

Date: 10 March 2025. My part: system design, 60 minutes.

Task: design a service that shortens links and counts clicks, for 50 million clicks a day.

- Started with clear questions about scale and retention. Good.
- Proposed a key-value store for the short codes and a cache in front of it; explained cache
  misses and hot keys well.
- Weak on consistency: when asked how click counts stay correct across two regions, the answer
  was "the database handles it". With hints, got to per-region counters merged every minute.
- Did not mention rate limiting or abuse until asked.
- Communication: calm, wrote things down, accepted hints.

Recommendation: hire, but at mid level rather than senior. I would pair them with Mei for the
first three months.
""")

note("notes/work/kafka-reading-notes.md", "2025-05-20", """
# Reading notes: event queues for the ledger

We are considering a message queue between the API gateway and the ledger service, so that
the ledger can be down for a few minutes without failing payments. Notes from reading:

- At-least-once delivery means the ledger must ignore duplicates; we already have idempotency
  keys on every charge.
- Ordering only matters per merchant, so the partition key can be the merchant id.
- Retention of seven days gives us room to replay after a bad deploy.
- Consumer lag is the number to alert on, not queue size.

Open question: do we run it ourselves or buy it hosted? Bring this to the architecture forum.
""")

# ============================================================================================
# Recipes: two similar chickpea dishes, two similar banana recipes, a cake, a risotto
# ============================================================================================

note("notes/recipes/chana-masala.md", "2024-10-06", """
# Chana masala

Serves 4. About 40 minutes. A proper weeknight curry, better the next day.

## Ingredients

- 2 tins chickpeas (400 g each), drained
- 2 onions, finely chopped
- 4 cloves garlic and a thumb of ginger, grated
- 1 green chilli, slit
- 1 tin chopped tomatoes
- 2 tablespoons oil
- 1 teaspoon cumin seeds
- 2 teaspoons ground coriander, 1 teaspoon turmeric, 1 teaspoon chilli powder
- 2 teaspoons garam masala and 1 teaspoon amchur (dried mango powder)
- salt, fresh coriander

## Method

1. Heat the oil, add the cumin seeds and let them sizzle for 30 seconds.
2. Fry the onions slowly until deep golden, about 12 minutes. Do not rush this part.
3. Add garlic, ginger and chilli, then the ground spices, and stir for a minute.
4. Add the tomatoes and cook until the oil separates, about 8 minutes.
5. Add the chickpeas and 250 ml water, mash a few chickpeas against the pan and simmer for
   15 minutes.
6. Finish with garam masala, amchur and salt. Scatter fresh coriander.

Serve with rice or warm bhatura. The amchur gives the sour note; lemon juice works in a pinch.
""")

note("notes/recipes/chickpea-spinach-stew.md", "2025-01-26", """
# Chickpea and spinach stew with coconut

Serves 3. 25 minutes, one pot. Mild, so fine for guests who do not like heat.

## Ingredients

- 1 tin chickpeas, drained
- 1 tin coconut milk
- 200 g baby spinach
- 1 onion, sliced; 2 cloves garlic
- 1 teaspoon ground cumin, 1 teaspoon smoked paprika
- 1 tablespoon tomato paste
- zest and juice of 1 lemon
- salt and black pepper

## Method

1. Soften the onion in a little olive oil for 5 minutes, then add garlic, cumin and paprika.
2. Stir in the tomato paste, then the chickpeas and the coconut milk.
3. Simmer for 10 minutes until slightly thick.
4. Stir in the spinach a handful at a time until it wilts.
5. Add lemon zest and juice, season, and serve with crusty bread.

Leftovers thicken in the fridge; loosen with a splash of stock.
""")

note("notes/recipes/banana-bread.md", "2024-03-17", """
# Banana bread with walnuts

One loaf (900 g tin). Bake 60 minutes at 175 C (fan 160 C).

## Ingredients

- 3 very ripe bananas, mashed
- 100 g melted butter
- 120 g light brown sugar
- 2 eggs
- 1 teaspoon vanilla
- 220 g plain flour, 1 teaspoon bicarbonate of soda, a pinch of salt
- 1 teaspoon cinnamon
- 80 g walnuts, roughly chopped

## Method

1. Line the loaf tin with baking paper and heat the oven.
2. Whisk the butter, sugar, eggs and vanilla, then stir in the bananas.
3. Fold in the flour, soda, salt and cinnamon until just combined. Fold in the walnuts.
4. Pour into the tin and bake for about an hour, until a skewer comes out clean. Cover with
   foil after 40 minutes if the top browns too fast.
5. Cool in the tin for 15 minutes before turning out.

Keeps four days wrapped. Toasted with butter the next morning it is even better.
""")

note("notes/recipes/banana-oat-pancakes.md", "2025-02-02", """
# Banana and oat pancakes

Makes 8 small pancakes, enough for two. 15 minutes. No flour, no sugar.

## Ingredients

- 1 ripe banana
- 2 eggs
- 60 g rolled oats
- half a teaspoon baking powder
- a pinch of cinnamon and salt
- butter for the pan; to serve: yoghurt, berries, maple syrup

## Method

1. Blend everything into a thick batter and let it rest for 5 minutes.
2. Heat a non-stick pan on medium with a little butter.
3. Drop in two tablespoons of batter per pancake and cook for 2 minutes, until bubbles show.
4. Flip and cook one more minute.

Good for Sunday breakfast. The batter does not keep; make it fresh.
""")

note("notes/recipes/mushroom-risotto.md", "2024-11-24", """
# Mushroom risotto

Serves 2 generously. 35 minutes of stirring, worth it.

- 160 g arborio rice
- 250 g chestnut mushrooms, sliced, plus 10 g dried porcini soaked in 200 ml hot water
- 1 shallot, 1 clove garlic
- 100 ml white wine
- about 800 ml hot vegetable stock
- 30 g butter, 40 g grated parmesan, thyme

1. Fry the mushrooms in half the butter until golden; set aside.
2. Soften the shallot and garlic, add the rice and toast it for 2 minutes.
3. Add the wine, let it bubble away, then add stock a ladle at a time, stirring, for 18 minutes.
4. Add the porcini with their soaking liquid (strained) halfway through.
5. Stir in the mushrooms, the rest of the butter and the parmesan. Rest for 2 minutes.
""")

note("notes/recipes/chocolate-birthday-cake.md", "2024-12-01", """
# Chocolate layer cake (for Ana's birthday)

Two 20 cm tins. Bake 30 minutes at 180 C. Serves 12.

## Sponge

- 225 g plain flour, 350 g caster sugar, 85 g cocoa powder
- 1.5 teaspoons baking powder, 1.5 teaspoons bicarbonate of soda
- 2 eggs, 250 ml milk, 125 ml vegetable oil, 2 teaspoons vanilla
- 250 ml boiling water

Mix the dry ingredients, beat in eggs, milk, oil and vanilla, then stir in the boiling water.
The batter is very thin; that is right. Divide between the tins and bake.

## Icing

- 200 g dark chocolate, 200 ml double cream, 2 tablespoons golden syrup

Heat the cream, pour over the chopped chocolate, stir in the syrup and let it thicken.

## Decoration

Raspberries on top and a ring of candles. Buy the number candles: she turns 34.
""")

# ============================================================================================
# Travel journals
# ============================================================================================

note("notes/travel/journal-2024-07-cornwall.md", "2024-07-22", """
# Cornwall, July 2024

## Friday 19 July

Drove down in six hours with one stop. The cottage in St Ives is up a lane so steep the car
complained. Walked out to Godrevy in the evening and watched the sun go down behind the white
lighthouse on its little island. The sky went orange, then pink, then purple. Seals on the
rocks below the headland.

## Saturday 20 July

Beach day at Porthminster. Rented a paddleboard for an hour and fell in twice. In the evening
a boat trip around the bay; the sails of the yachts turned gold at sunset.

## Sunday 21 July

Coast path from Zennor back towards St Ives: ten kilometres of cliffs, foxgloves and gorse.
Cream tea at the end. Knees hurt.

## Monday 22 July

Harbour in the morning, crab sandwich, long drive home.
""")

note("notes/travel/journal-2024-10-kyoto.md", "2024-10-30", """
# Kyoto, October 2024

Five days, staying in a small machiya near Gojo station.

Day one: jet lag, so we started early at Fushimi Inari and were on the mountain path by 6:30,
almost alone under the thousands of orange torii gates. It took two and a half hours up and down.

Day two: Arashiyama. The bamboo grove is smaller than the photos suggest, and busy after 9,
but the walk to the Okochi Sanso villa garden was quiet and lovely. Tofu lunch by the river.

Day three: a tea ceremony class in Uji, then matcha everything. Bought a tin of gyokuro.

Day four: rain. Nishiki market, the manga museum, and a very long bath.

Day five: Philosopher's Path in the morning, maple leaves just starting to turn red. Train to
Osaka airport in the afternoon.
""")

note("notes/travel/journal-2025-05-iceland.md", "2025-05-25", """
# Iceland ring road, May 2025

Eight days, about 1,400 km in a small rental car, anticlockwise from Reykjavik.

The south coast was the highlight: Seljalandsfoss, where you can walk behind the waterfall and
get soaked, and Skogafoss an hour later. The black sand beach near Vik had basalt columns and
waves that came up much further than expected; a warning sign says why.

At Jokulsarlon we watched icebergs float out to sea and wash up on the beach, glittering like
glass. The east fjords were empty and foggy; we drove for two hours and met four cars.

Myvatn: pseudo-craters, steaming vents and a warm lagoon in the evening. Whale watching from
Husavik: two humpbacks and a lot of seasick passengers.

Food was expensive; we lived on skyr, rye bread and petrol-station hot dogs.
""")

note("notes/travel/journal-2025-08-lake-district.md", "2025-08-11", """
# Lake District, August 2025

Three days of walking from a campsite near Buttermere.

Day 1: the loop around the lake, about seven kilometres and flat. The water was perfectly still
in the morning and the fells reflected in it. Pine trees along the shore, a few swimmers.

Day 2: up Haystacks. Steep and rocky near the top, then a small tarn where we had lunch in the
wind. Came down in the rain.

Day 3: a rest day in Keswick, pencil museum and a pub lunch. The tent survived a windy night.

Bring: better waterproof trousers, midge spray, and more snacks than seems sensible.
""")

# ============================================================================================
# Personal
# ============================================================================================

note("notes/personal/bike-maintenance.md", "2025-03-23", """
# Bike maintenance

My commuter is the red steel frame bike from the second-hand shop on Vale Street. Notes on what
I did and when.

- March 2025: new chain (the old one had stretched to 0.75 percent), cleaned the cassette,
  new brake pads at the front.
- The rear tyre loses pressure slowly; check it every Sunday, 5 bar.
- Lights: recharge every week in winter.
- Next: the bottom bracket creaks when I pedal hard. Ask at the shop.

Work runs a cycle-to-work scheme; check the handbook for the limit before buying a new one.
""")

note("notes/personal/reading-list.md", "2025-06-01", """
# Reading list

## Read in 2025

- The Salt Path, by a couple walking the coast path after losing their home. Moving.
- A novel about a lighthouse keeper on a remote island; slow but beautiful.
- A history of the bicycle; better than expected.

## Want to read

- Something about the history of tea.
- A thick fantasy series for the winter.
- The book club picks (see the schedule).
""")

note("notes/personal/gift-ideas.md", "2025-11-02", """
# Gift ideas

- Ana (birthday in December): a pottery class voucher, or one of my own speckled mugs.
- Mum: a cashmere scarf, dark green; or tickets to the ballet in January.
- Dad: a good torch for the allotment shed; audiobooks.
- Tomasz (secret santa at work, limit 20): a small plant and good coffee.
- Biscuit: a new scratching post; the old one is in shreds.
""")

note("notes/personal/home-network.md", "2025-01-05", """
# Home network

The fibre line comes in at the hallway and ends in the provider's router. From there a cable
runs to an eight-port switch in the cupboard under the stairs. On the switch: the NAS (two 4 TB
disks mirrored), the desktop in the study and the printer. A wireless access point in the
living room hangs off the switch too, and the phones, laptops and the TV use that.

Addresses: router 192.168.1.1, NAS 192.168.1.20, access point 192.168.1.2. The guest network is
separate and cannot see the NAS.

To do: replace the old switch, it runs hot. Label the cables.
""")

note("notes/personal/biscuit-the-cat.md", "2025-04-12", """
# Biscuit

Orange tabby, adopted from the rescue centre in September 2023. About four years old.

- Food: wet food twice a day, half a pouch at 7:00 and 19:00, plus a small handful of dry food.
  The vet wants him to lose a little weight, so no more treats from the table.
- Weight: 5.1 kg in January, 4.8 kg in April. Target 4.5 kg.
- Likes: the sunny spot on the back of the sofa, cardboard boxes, the tap in the bathroom.
- Dislikes: the hoover, the carrier, being picked up after dinner.
- When we are away: Ana feeds him; she has the spare key.
""")

note("notes/personal/half-marathon-plan.txt", "2025-02-28", """
HALF MARATHON PLAN  (race: Northmere Riverside Half, Sunday 11 May 2025)

Week  Tue           Thu               Sat (long run)
 1    5 km easy     6 km with strides  10 km
 2    5 km easy     4 x 1 km fast      11 km
 3    6 km easy     7 km tempo         13 km
 4    5 km easy     5 x 1 km fast      14 km
 5    6 km easy     8 km tempo         16 km
 6    6 km easy     6 x 1 km fast      18 km
 7    5 km easy     6 km tempo         12 km (taper)
 8    4 km easy     3 km with strides  race

Goal: under 2 hours. Eat porridge three hours before the start. New shoes by week 3, not later.
""")

note("notes/personal/kiln-and-crow-sales-2025.md", "2025-12-30", """
# Kiln & Crow - how 2025 went

Kiln & Crow is my little online pottery shop. Notes for the year, in pounds.

Sales started slow: 640 in January and 710 in February. Spring was steadier, growing every
month to 1,610 in June after the garden show. July and August dipped to 980 and 890 while I was
travelling and the shop was half closed. From September it climbed again, and November was the
best month by far at 3,420, thanks to the Christmas market and the restock of the speckled mugs.
December finished at 2,980.

Total for the year: 18,870. Best sellers: speckled mugs, ramen bowls, small bud vases.

For next year: more stock before November, raise the mug price by 2, try wholesale with one
cafe.
""")

note("notes/personal/car-insurance-renewal.txt", "2025-09-30", """
Car insurance renewal - reminder to self

Insurer: Ravenmoor Insurance
Policy number: NRM-55-20931
Car: 2019 hatchback, registration NM19 KXT
Renewal date: 14 October 2025
This year's quote: 412.60 (last year 368.20). No claims: 6 years.

Called them on 29 September. They matched the comparison site price (379.00) if I keep the
same excess (250). Accepted. Confirmation by email within 5 working days.
""")

note("notes/personal/tax-return-notes-2024.md", "2025-01-18", """
# Tax return 2023-24 notes

Deadline: 31 January 2025. Done on 18 January.

- Employment income from Brightwell Ledger: from the P60.
- Pottery shop (self-employment): income 11,240, costs 4,910 (clay, glaze, kiln firing fees,
  market stall fees, postage, hosting). Profit 6,330.
- Trading allowance not used because costs were higher than 1,000.
- Keep receipts for six years; they are in the box in the study and some are scanned.
- Payment on account for next year: two instalments, January and July.
""")

note("notes/personal/apartment-move-in.md", "2024-09-02", """
# Moving in - Cobalt Lane

Moved into the flat on 1 September 2024.

Meter readings on the day: electricity 40213, gas 08861, water 1182.
Keys received: three door keys and one fob for the bin store.
Photos of every room taken for the inventory, especially the scratched kitchen worktop and the
stain on the bedroom carpet, so they are not charged to us later.

Still to do: register for council tax, change address at the bank and the GP, order a parking
permit, ask the landlord whether a cat would be all right.
""")
