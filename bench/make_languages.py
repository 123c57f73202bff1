"""A held-out folder for other-language search (issue 11, part 4): bench/'s text notes, plus
notes in German and Portuguese and two scanned notes (pictures of text, read by OCR), which
bench/ lacks. bench/queries-languages.jsonl asks it English questions about the German,
Portuguese and scanned notes, and Spanish, French, German, Portuguese and Hindi questions about
English notes (the reverse direction). Written after the gloss was built; nothing was tuned on it.

    python bench/make_bench.py /tmp/bench && python bench/make_languages.py /tmp/bench /tmp/langs
"""
from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

NOTES = {
    "notes/deutsch/kartoffelsalat.md": """
# Omas Kartoffelsalat

Für sechs Personen. Ein Kilo festkochende Kartoffeln in der Schale kochen, abkühlen lassen, schälen
und in dünne Scheiben schneiden. Eine Zwiebel fein hacken und in einem halben Liter heißer
Brühe kurz ziehen lassen. Die Brühe mit Essig, Senf, Salz und Pfeffer über die Kartoffeln gießen.
Eine Stunde ziehen lassen, dann Gurken und Schnittlauch dazugeben. Oma sagte immer: nie mit
Mayonnaise, und am besten schmeckt er am nächsten Tag.
""",
    "notes/deutsch/fahrrad-reparatur.md": """
# Fahrrad in der Werkstatt

Am Montag das Fahrrad zur Werkstatt gebracht. Die Kette war verrostet und die Bremsen quietschten.
Der Mechaniker hat die Kette gewechselt, neue Bremsbeläge eingebaut und den Hinterreifen geflickt.
Kosten: 85 Euro. Abholen am Donnerstag nach sechs Uhr. Nächstes Jahr im Frühling wieder zur Inspektion.
""",
    "notes/deutsch/wohnung-nebenkosten.md": """
# Nebenkosten der Wohnung

Die Abrechnung vom Vermieter ist gekommen. Für Heizung und Warmwasser müssen wir 240 Euro nachzahlen,
weil der Winter so kalt war. Die monatliche Vorauszahlung steigt ab Januar von 180 auf 210 Euro.
Strom und Internet zahlen wir selbst. Frist für Einwände: sechs Wochen nach Erhalt des Briefes.
""",
    "notes/portugues/bacalhau.md": """
# Bacalhau à Brás da avó

Demolhar o bacalhau durante dois dias, mudando a água três vezes por dia. Desfiar o peixe sem pele
nem espinhas. Fritar batata palha. Numa frigideira grande, alourar a cebola e o alho em azeite,
juntar o bacalhau, depois a batata, e por fim seis ovos batidos. Mexer em lume brando até os ovos
ficarem cremosos. Servir com salsa picada e azeitonas pretas.
""",
    "notes/portugues/viagem-lisboa.md": """
# Fim de semana em Lisboa

Chegámos na sexta à noite. No sábado subimos no elétrico 28 até ao castelo e almoçámos sardinhas
assadas em Alfama. À tarde fomos a Belém comer pastéis de nata ainda quentes e visitar o mosteiro.
No domingo apanhámos o comboio para Sintra: o palácio colorido no meio do nevoeiro foi o melhor da viagem.
""",
    "notes/portugues/consulta-dentista.md": """
# Consulta no dentista

A dentista disse que tenho uma cárie pequena no dente do siso e que as gengivas estão inflamadas.
Marcámos a obturação para dia 3 de março às 9h30. Tenho de usar fio dental todas as noites e
trocar a escova de dentes de três em três meses. A limpeza custa 45 euros e o seguro paga metade.
""",
}

# Scanned notes: pictures of printed text (no text layer), found only through OCR.
SCANS = {
    "scans/notiz-heizung.png": ("Heizung kaputt!", [
        "Der Heizkessel im Keller zeigt Fehler F28.",
        "Kein warmes Wasser seit Sonntag.",
        "Der Installateur kommt am Mittwoch",
        "zwischen acht und zwölf Uhr.",
        "Vorher den Zähler ablesen."]),
    "scans/receita-caldo-verde.png": ("Caldo verde", [
        "Cozer as batatas com cebola e alho.",
        "Esmagar tudo e juntar a couve",
        "cortada muito fina.",
        "Servir com uma rodela de chouriço",
        "e um fio de azeite."]),
}

DAY = time.mktime((2025, 3, 1, 12, 0, 0, 0, 0, -1))


def _scan(path: Path, title: str, lines: list[str]) -> None:
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype("DejaVuSans.ttf", 34) if _has_dejavu() else ImageFont.load_default(34)
    image = Image.new("L", (1100, 120 + 60 * (len(lines) + 1)), 250)
    draw = ImageDraw.Draw(image)
    draw.text((60, 50), title, fill=20, font=font)
    for i, line in enumerate(lines, start=2):
        draw.text((60, 50 + 60 * i), line, fill=20, font=font)
    image.save(path)


def _has_dejavu() -> bool:
    from PIL import ImageFont

    try:
        ImageFont.truetype("DejaVuSans.ttf", 10)
        return True
    except OSError:
        return False


def main(bench: str, out: str) -> None:
    src, dst = Path(bench), Path(out)
    for part in ("notes", "misc"):
        shutil.copytree(src / part, dst / part, dirs_exist_ok=True)
    for rel, text in NOTES.items():
        path = dst / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.strip() + "\n", encoding="utf8")
        os.utime(path, (DAY, DAY))
    for rel, (title, lines) in SCANS.items():
        path = dst / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        _scan(path, title, lines)
        os.utime(path, (DAY, DAY))


if __name__ == "__main__":
    main(*sys.argv[1:3])
