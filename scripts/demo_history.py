"""Write a small, noisy demo history (JSON Lines for `ibachat memory import`), dated relative to now.

The user loves very spicy, crunchy food (shown by repeated orders more than by words), had a
tooth pulled two days ago, keeps turning down aisle seats, and keeps asking for shorter drafts.
Most turns are about other things.
"""

from __future__ import annotations

import json
import random
import sys
from datetime import datetime, timedelta, timezone

NOISE = [
    (
        "Any idea why my basil keeps wilting on the windowsill?",
        "It may be getting too much afternoon sun; try a spot with morning light.",
    ),
    ("What's a good name for a grey kitten?", "How about Pebble, Smoke or Ash?"),
    ("Remind me what the capital of Australia is.", "Canberra."),
    ("How long should I boil an egg for a runny yolk?", "About six and a half minutes from boiling water."),
    (
        "My laptop fan is loud all of a sudden.",
        "Check for dust in the vents and for a process using a lot of CPU.",
    ),
    ("Convert 5 miles to kilometres please.", "5 miles is about 8.05 km."),
    ("Is it going to be a long weekend in May?", "Yes, the first Monday of May is a bank holiday."),
    ("Give me a synonym for 'resilient'.", "Hardy, tough or adaptable."),
    ("What year did the Berlin Wall fall?", "1989."),
    (
        "How do I get candle wax out of a tablecloth?",
        "Freeze it, scrape it off, then iron it between paper towels.",
    ),
]


def main() -> None:
    rng = random.Random(3)
    now = datetime.now(timezone.utc).replace(microsecond=0)
    rows: list[dict] = []

    def session(sid: str, when: datetime, turns: list[tuple[str, str, dict | None]]) -> None:
        for i, (role, text, call) in enumerate(turns):
            row = {
                "session_id": sid,
                "role": role,
                "text": text,
                "time": (when + timedelta(minutes=i)).isoformat(),
            }
            if call:
                row["tool_call"] = call
            rows.append(row)

    day = 120
    n = 0
    orders = [
        ("Bangkok Garden", ["jungle curry", "fried spring rolls"]),
        ("Sichuan House", ["dan dan noodles", "crispy chilli beef"]),
        ("Bangkok Garden", ["pad kra pao", "prawn crackers"]),
        ("Taco Loco", ["habanero pork tacos", "tortilla chips"]),
        ("Sichuan House", ["mapo tofu", "crispy chilli beef"]),
    ]
    while day > 3:
        n += 1
        when = now - timedelta(days=day, hours=rng.randint(0, 10))
        q, a = NOISE[n % len(NOISE)]
        session(f"s{n:03d}", when, [("user", q, None), ("assistant", a, None), ("user", "thanks!", None)])
        if n % 3 == 0 and orders:
            place, items = orders.pop(0)
            session(
                f"food{n:03d}",
                when + timedelta(hours=2),
                [
                    ("user", f"Get me the usual from {place}.", None),
                    ("assistant", f"Ordering {', '.join(items)} from {place}.", None),
                    (
                        "tool",
                        "Order confirmed.",
                        {
                            "name": "order_food",
                            "arguments": {
                                "restaurant": place,
                                "items": items,
                                "spice_level": "hot",
                                "texture": "crunchy",
                            },
                        },
                    ),
                ],
            )
        if n == 5:
            session(
                f"talk{n}",
                when + timedelta(hours=4),
                [
                    (
                        "user",
                        "Honestly the hotter the better, if my eyes aren't watering it's too mild.",
                        None,
                    ),
                    ("assistant", "Got it.", None),
                ],
            )
        if n in (7, 13):
            session(
                f"fly{n}",
                when + timedelta(hours=5),
                [
                    ("user", "Book the Lisbon flight for next month.", None),
                    ("assistant", "I found an aisle seat in row 14, shall I take it?", None),
                    ("user", "No, not the aisle again, I want to lean on the wall and look out.", None),
                ],
            )
        if n in (4, 9, 15):
            session(
                f"draft{n}",
                when + timedelta(hours=6),
                [
                    ("user", "Write a note to the neighbours about the parcel.", None),
                    (
                        "assistant",
                        "Dear neighbours, I hope this message finds you well. I wanted to reach out regarding a parcel that ... (a long draft)",
                        None,
                    ),
                    (
                        "user",
                        "Way too long, cut it to two or three sentences. I never read long notes.",
                        None,
                    ),
                ],
            )
        day -= rng.randint(3, 6)
    session(
        "dentist",
        now - timedelta(days=2),
        [
            (
                "user",
                "Had my wisdom tooth pulled this morning. The dentist said soft food only for the next week and nothing spicy.",
                None,
            ),
            ("assistant", "Ouch, I hope the recovery goes smoothly.", None),
        ],
    )
    for row in rows:
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
