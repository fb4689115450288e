"""Task-irrelevant turns: small talk, errands and trivia, built from slot-filled families."""

from __future__ import annotations

import random
from datetime import datetime

FIXED = (
    (
        "What a grey morning. Is it going to rain all week?",
        "Looks like showers most days, with a dry spell midweek.",
    ),
    ("My cat knocked a plant off the shelf again.", "Classic cat behaviour. Was the plant okay?"),
    ("Long day. I'm exhausted.", "Sorry to hear it. Anything I can take off your plate?"),
    ("Guess what, I finally fixed the squeaky door.", "Victory! New hinge or just oil?"),
    (
        "Do you know any good podcasts about history?",
        "A few people like 'The Rest Is History' and 'Fall of Civilizations'.",
    ),
    ("What's a good name for a sourdough starter?", "How about 'Bready Mercury' or 'Doughbi-Wan'?"),
    ("The neighbours are having a party again.", "Noise-cancelling headphones might be your friend tonight."),
    (
        "How long do I boil an egg for a runny yolk?",
        "About six minutes from boiling water, then into cold water.",
    ),
    (
        "Can you explain what inflation actually is, in one line?",
        "Prices rising across the economy, so money buys a bit less over time.",
    ),
    (
        "My phone battery dies so fast lately.",
        "Check which apps use the most battery; background refresh is a usual suspect.",
    ),
    ("Is it weird to eat cereal for dinner?", "Not at all, plenty of people do."),
    ("I've been learning to juggle. Three balls so far.", "Nice! Four is where it gets tricky."),
    (
        "How do I get a red wine stain out of a rug?",
        "Blot it, then dish soap, vinegar and warm water. Don't rub.",
    ),
    ("Just watched the sunset from the balcony. Gorgeous.", "Sounds lovely. Those evenings are the best."),
    (
        "My plant's leaves are going yellow, any idea why?",
        "Often overwatering. Let the soil dry out between waterings.",
    ),
    ("I keep forgetting where I put my keys.", "A hook by the door works wonders."),
    ("Recommend a board game for four people?", "Ticket to Ride is a safe, fun pick."),
    ("Our team won the quiz night!", "Congratulations! What was the winning round?"),
    ("Should I repaint the hallway a lighter colour?", "Lighter colours make narrow spaces feel bigger."),
    ("Ugh, Mondays.", "Hang in there. One thing at a time."),
    (
        "What's a good stretch for a stiff neck?",
        "Slow chin tucks and gentle side tilts, holding each for a few breaths.",
    ),
    (
        "Can you help me write a text to the plumber asking when he's free?",
        "Sure: 'Hi, could you let me know when you're free to come by this week?'",
    ),
    (
        "What time does the post office usually close on Saturdays?",
        "Most close around midday on Saturdays, but check your local branch.",
    ),
    ("Translate 'where is the station' into Spanish.", "¿Dónde está la estación?"),
    ("How do I reset my router?", "Hold the reset button for about ten seconds, then wait for it to reboot."),
    (
        "What's a polite way to decline an invitation?",
        "'Thanks so much for thinking of me, but I can't make it this time.'",
    ),
    ("How long should I rest bread dough?", "Usually an hour or two, until it doubles."),
    (
        "What do I need to renew a passport?",
        "Usually the old passport, a new photo and the form; check the official site.",
    ),
    (
        "Any tips for falling asleep faster?",
        "Keep a regular bedtime, dim the lights and put the phone away an hour before.",
    ),
)
THINGS = (
    "washing machine",
    "printer",
    "wifi",
    "kettle",
    "dishwasher",
    "heating",
    "laptop",
    "doorbell",
    "fridge",
    "car radio",
)
EVENTS = (
    ("is acting up again.", "Annoying. Have you tried turning it off and on again?"),
    ("finally got fixed.", "Great, one less thing to worry about."),
    ("made a weird noise this morning.", "Might be worth keeping an eye on it."),
    ("died on me today.", "Oh no. Want me to look up repair options?"),
)
COUNTRIES = (
    ("Canada", "Ottawa"),
    ("Australia", "Canberra"),
    ("Portugal", "Lisbon"),
    ("Norway", "Oslo"),
    ("Chile", "Santiago"),
    ("Kenya", "Nairobi"),
    ("Vietnam", "Hanoi"),
    ("Peru", "Lima"),
    ("Hungary", "Budapest"),
    ("Morocco", "Rabat"),
    ("New Zealand", "Wellington"),
    ("Finland", "Helsinki"),
    ("Ghana", "Accra"),
    ("Colombia", "Bogotá"),
    ("Egypt", "Cairo"),
)
FACTS = (
    ("octopuses", "They have three hearts and blue blood."),
    ("otters", "Sea otters hold hands while they sleep."),
    ("crows", "They can recognise individual human faces."),
    ("honeybees", "They communicate by dancing."),
    ("elephants", "They can hear through their feet."),
    ("owls", "They can't move their eyes, so they turn their heads."),
    ("snails", "Some can sleep for up to three years."),
    ("cows", "They have best friends and get stressed apart."),
)
AUTHORS = (
    ("Pride and Prejudice", "Jane Austen"),
    ("One Hundred Years of Solitude", "Gabriel García Márquez"),
    ("Beloved", "Toni Morrison"),
    ("The Trial", "Franz Kafka"),
    ("Things Fall Apart", "Chinua Achebe"),
    ("Middlemarch", "George Eliot"),
    ("Norwegian Wood", "Haruki Murakami"),
)
SYNONYMS = (
    ("important", "significant, crucial"),
    ("happy", "glad, cheerful"),
    ("tired", "weary, worn out"),
    ("quick", "swift, rapid"),
    ("difficult", "hard, tough"),
    ("funny", "amusing, witty"),
)
COUNTS = (
    ("minutes are in a day", "1,440."),
    ("days are in a leap year", "366."),
    ("sides does a hexagon have", "Six."),
    ("seconds are in an hour", "3,600."),
    ("bones are in the human body", "206 in adults."),
    ("players are on a rugby union team", "Fifteen."),
)
MOODS = (
    ("tired", "Be kind to yourself today."),
    ("great", "Love to hear it!"),
    ("a bit low", "Sorry. Want to talk about it?"),
    ("productive", "Make the most of it!"),
    ("restless", "A short break outside sometimes helps."),
)
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def noise_pair(rng: random.Random, when: datetime) -> tuple[str, str]:
    """One irrelevant (user, assistant) exchange, consistent with the session's date."""
    family = rng.randrange(9)
    if family == 0:
        return rng.choice(FIXED)
    if family == 1:
        event, reply = rng.choice(EVENTS)
        return f"The {rng.choice(THINGS)} {event}", reply
    if family == 2:
        country, capital = rng.choice(COUNTRIES)
        return rng.choice(
            (f"What's the capital of {country}?", f"Quick quiz: capital of {country}?")
        ), f"It's {capital}."
    if family == 3:
        animal, fact = rng.choice(FACTS)
        return f"Tell me a fun fact about {animal}.", fact
    if family == 4:
        book, author = rng.choice(AUTHORS)
        return f"Who wrote {book}?", f"{author}."
    if family == 5:
        word, syn = rng.choice(SYNONYMS)
        return f"Give me a synonym for '{word}'.", f"Try {syn}."
    if family == 6:
        what, answer = rng.choice(COUNTS)
        return f"How many {what}?", answer
    if family == 7:
        mood, reply = rng.choice(MOODS)
        return rng.choice(
            (f"Feeling {mood} today.", f"Honestly, I'm {mood} this {when.strftime('%A')}.")
        ), reply
    month = MONTHS[when.month - 1]
    return rng.choice(
        (
            (
                f"I can't believe it's {month} already.",
                "Time flies. Anything planned for the rest of the month?",
            ),
            (f"{month} always goes so fast.", "It really does."),
            (
                f"Any idea what's on in town this {month}?",
                "I'd check the local listings; there's usually something on weekends.",
            ),
        )
    )
