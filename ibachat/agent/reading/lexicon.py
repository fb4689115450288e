"""A small generic lexicon of preference attributes: graded scales and the words for each value.

Extraction finds these phrases in what the user said; planning maps an attribute onto a
tool's parameter (by its name, description and enum values) and a value onto the
parameter's enum (by synonym, then by position on the scale). Nothing here is specific
to one benchmark or one tool.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

# Words that make a text about writing (for the text.* attributes, whose words are generic).
_TEXT = (
    r"answer|answers|repl(?:y|ies)|response|responses|e-?mails?|messages?|summar(?:y|ies)|drafts?|write|"
    r"writing|written|explanations?|explain|notes?|reports?|posts?|letters?|version|paragraphs?|words|"
    r"sentences?|read|text|texts|doc|docs|documents?|updates?|recaps?|copy|bio|captions?|content|keep it|"
    r"keep them|tone|sound|voice|format|formatting|style|talk|speak|wording|chat|say|list|lists"
)
_DRINK = (
    r"coffee|tea|latte|lattes|drinks?|chai|cocoa|cappuccinos?|americanos?|beverages?|mocha|matcha|brew|cups?|"
    r"espresso|macchiato|flat white|smoothies?|juice|soda|milk|frappe|order"
)
_FOOD = (
    r"food|foods|eat|eating|ate|meals?|dish|dishes|dinner|lunch|breakfast|snacks?|order|orders|ordering|"
    r"takeout|delivery|curry|noodles|chew|chewing|bite|menu|cook|cooking|restaurant|cuisine|sauce|salsa|wings"
)
_TRAVEL = (
    r"seat|seats|seating|flights?|fly|flying|flew|plane|row|train|bus|book|booking|booked|sit|sitting|"
    r"legroom|boarding|cabin|trip|travel|ticket|tickets|airline|aisle|window seat|ride"
)
_WHEN = (
    r"flights?|fly|depart\w*|meetings?|appointments?|calls?|class(?:es)?|workouts?|gym|run|runs|schedule|"
    r"slots?|book|booking|reservation|person|time|times|start|sessions?|train|shift|lessons?|deliver\w*|"
    r"pick ?up|tee time|dinner|lunch|breakfast|leav\w+|arriv\w+|(?:before|after|by|at|from) \d|\d(?::\d\d)? ?[ap]\.?m\b|o'clock"
)
_FITNESS = (
    r"workouts?|exercise|exercising|training|train|gym|run|runs|class(?:es)?|activit(?:y|ies)|hikes?|hiking|"
    r"fitness|sessions?|routine|cardio|plan|walks?|sport|sports"
)
_SIZE = (
    r"size|sizes|cups?|coffee|latte|drinks?|portions?|pizza|order|meals?|fries|soda|tea|smoothie|serving|bowl|"
    r"(?:have|get|take|want|order|grab|make it|make mine|i'll do|go for) (?:a|an|the) (?:small|medium|large|tall|grande|venti|regular|mini)\b"
)


@dataclass(frozen=True)
class Attribute:
    """One preference dimension: its values (each with the phrases that name it)."""

    dimension: str
    aliases: tuple[str, ...]  # words that name the attribute, for matching a tool's parameter
    values: dict[str, tuple[str, ...]]  # canonical value -> phrases (lower case)
    scale: tuple[str, ...] = ()  # ordered low -> high, for graded attributes
    context: str | None = None  # regex that must occur nearby for the phrases to count
    generic: frozenset[str] = frozenset()  # phrases that name the attribute loosely (negating avoids more)
    implies_when_avoided: dict[str, str] = field(default_factory=dict)  # avoid X -> prefer Y
    exclusive: bool = True  # one value at a time (a seat) or a set (allergens)
    label: str = ""
    numeric: dict[str, float] = field(default_factory=dict)  # value -> number for numeric parameters
    context_for: frozenset[str] = frozenset()  # only these phrases need ``context`` (all of them when empty)

    def rank(self, value: str) -> int | None:
        return self.scale.index(value) if value in self.scale else None


def _a(dimension: str, aliases: str, values: dict[str, str], **kw: object) -> Attribute:
    vals = {k: tuple(p.strip() for p in v.split(",") if p.strip()) for k, v in values.items()}
    generic = kw.pop("generic", "")
    assert isinstance(generic, str)
    return Attribute(
        dimension,
        tuple(aliases.split()),
        vals,
        generic=frozenset(p.strip() for p in generic.split(",") if p.strip()),
        label=str(kw.pop("label", dimension.split(".")[-1].replace("_", " "))),
        **kw,  # type: ignore[arg-type]
    )


ATTRIBUTES: tuple[Attribute, ...] = (
    _a(
        "food.spice",
        "spice spicy spiciness heat chili hot pepper",
        {
            "none": "no spice, zero spice, bland, non spicy, nonspicy, no heat, no chili",
            "mild": "mild, mildly spicy, a little spicy, a bit spicy, slightly spicy, a little spice, a touch of spice, not too spicy, not overly spicy, mild heat, a little heat, a bit of heat, a touch of heat, a little kick, a bit of a kick, gentle heat, light spice, lightly spiced, not too hot, medium mild",
            "medium": "medium spicy, medium spice, medium heat, medium hot, moderately spicy",
            "hot": "spicy, spicier, spiciest, spice, spicy food, spicy foods, hottest, hottest spice level, hottest level, hottest option, max spice, maximum spice, extra spicy, very spicy, really spicy, super spicy, fiery, hot sauce, extra hot, chili, chilli, chile, chilies, chillies, jalapeno, jalapeño, habanero, sriracha, szechuan, sichuan, vindaloo, heat, kick, hot, hot and spicy, spice level hot",
        },
        scale=("none", "mild", "medium", "hot"),
        context=_FOOD + r"|spic|chil|mild|pepper|sriracha",
        context_for=frozenset(
            {"heat", "kick", "fiery", "burn", "hot", "hottest", "hottest option", "hottest level"}
        ),
        generic="spicy, spicier, spiciest, spice, spicy food, spicy foods, fiery, hot sauce, chili, chilli, chile, chilies, chillies, jalapeno, jalapeño, habanero, sriracha, szechuan, sichuan, vindaloo, heat, kick, hot, hot and spicy",
        label="spice level",
    ),
    _a(
        "food.texture",
        "texture softness soft consistency chew chewing",
        {
            "soft": "soft, soft food, soft foods, softer, mushy, puree, pureed, mashed, liquid, liquids, soup, soups, broth, porridge, congee, oatmeal, yogurt, smoothie, smoothies, applesauce, pudding, easy to chew, nothing to chew, no chewing",
            "regular": "regular texture, normal food, solid food, solids",
            "crunchy": "crunchy, crispy, crisp, hard food, hard foods, chewy, tough, crusty",
        },
        context=_FOOD + r"|soft|crunch|chew|texture|soup|smoothie|porridge",
        implies_when_avoided={"crunchy": "soft"},
    ),
    _a(
        "food.diet",
        "diet dietary vegetarian vegan meat meal type protein",
        {
            "vegetarian": "vegetarian, veggie, meatless, plant based, plant-based, no meat, veg",
            "vegan": "vegan, fully plant based, no animal products",
            "pescatarian": "pescatarian, pescetarian",
            "meat": "meat, meats, steak, steaks, beef, pork, bacon, burger, burgers, lamb, ribs, brisket, sausage, sausages, ham, chicken, ribeye, sirloin, meat lover, carnivore, omnivore, bbq",
        },
        generic="meat, meats",
        implies_when_avoided={"meat": "vegetarian"},
    ),
    _a(
        "drink.caffeine",
        "caffeine decaf caffeinated",
        {
            "decaf": "decaf, decaffeinated, no caffeine, caffeine free, without caffeine",
            "regular": "regular coffee, caffeinated, full caf, full strength, normal coffee, real coffee, caffeine, extra shot, double shot",
        },
        implies_when_avoided={"regular": "decaf"},
        label="caffeine",
    ),
    _a(
        "drink.milk",
        "milk dairy creamer",
        {
            "whole": "whole milk, full fat milk, full cream",
            "skim": "skim, skimmed, skim milk, nonfat milk, non fat milk, fat free milk",
            "semi": "semi skimmed, semi-skimmed, semi skim, semi, reduced fat milk, 2% milk",
            "oat": "oat milk, oat",
            "almond": "almond milk",
            "soy": "soy milk, soya milk, soya",
            "coconut": "coconut milk",
            "none": "black, no milk, without milk",
        },
        context=_DRINK,
        context_for=frozenset({"black", "oat"}),
    ),
    _a(
        "drink.temperature",
        "temperature iced hot temp served",
        {
            "iced": "iced, ice, on ice, over ice, cold, cold brew, frozen, chilled, frappe",
            "hot": "hot, warm, steaming",
        },
        context=_DRINK,
    ),
    _a(
        "drink.sweetness",
        "sugar sweetness sweet sweetener syrup",
        {
            "none": "no sugar, unsweetened, sugarless, without sugar",
            "less": "less sugar, half sweet, lightly sweetened, less sweet, a little sugar, not too sweet",
            "regular": "sugar, sweet, sweets, regular sugar, normal sugar, sugary",
            "extra": "extra sweet, extra sugar, very sweet, sweet tooth, sweeter",
        },
        scale=("none", "less", "regular", "extra"),
        generic="sugar, sweet, sweets, sugary",
        numeric={"none": 0, "less": 1, "regular": 2, "extra": 3},
    ),
    _a(
        "drink.alcohol",
        "alcohol alcoholic drinks wine beer beverage",
        {
            "alcohol": "alcohol, wine, beer, beers, cocktail, cocktails, booze, liquor, spirits, a drink",
            "none": "non alcoholic, nonalcoholic, alcohol free, mocktail, mocktails, sober",
        },
        implies_when_avoided={"alcohol": "none"},
    ),
    _a(
        "size",
        "size portion cup serving",
        {
            "small": "small, smaller, smallest, tall, kid size, mini, smaller portions, small portions, light portion",
            "medium": "medium, grande, regular size, medium size",
            "large": "large, larger, largest, bigger, biggest, venti, big one, extra large, jumbo, bigger portions, large portions, xl",
        },
        scale=("small", "medium", "large"),
        context=_SIZE,
    ),
    _a(
        "travel.seat",
        "seat seating",
        {
            "window": "window seat, window, window seats",
            "aisle": "aisle seat, aisle, aisles",
            "middle": "middle seat",
        },
        context=_TRAVEL,
        implies_when_avoided={"aisle": "window", "window": "aisle", "middle": "window"},
    ),
    _a(
        "travel.class",
        "class cabin fare",
        {
            "economy": "economy, coach, economy class, basic economy",
            "premium_economy": "premium economy",
            "business": "business class, biz class, fly business, flying business",
            "first": "first class",
        },
        scale=("economy", "premium_economy", "business", "first"),
        label="cabin class",
    ),
    _a(
        "travel.stops",
        "stops layover layovers connection connections direct nonstop",
        {
            "nonstop": "nonstop, non stop, direct flight, direct flights, direct, no layover, no layovers, no connections, no stops",
            "connecting": "layover, layovers, connection, connections, connecting flight, connecting flights, stopover, stopovers, one stop",
        },
        context=_TRAVEL + r"|layover|connect|stop",
        context_for=frozenset({"direct", "connection", "connections", "one stop"}),
        implies_when_avoided={"connecting": "nonstop"},
        numeric={"nonstop": 0, "connecting": 1},
    ),
    _a(
        "schedule.time_of_day",
        "time departure slot hour period when",
        {
            "early_morning": "early morning, early mornings, first thing, first thing in the morning, crack of dawn, early bird, first slot of the day, first slot, earliest slot, first appointment of the day, before work, at dawn",
            "morning": "morning, mornings, before noon, morning person, early flights, early meetings, mid morning, late morning",
            "afternoon": "afternoon, afternoons, midday, lunchtime, after lunch",
            "evening": "evening, evenings, after work, after dinner",
            "night": "late night, late nights, red eye, redeye, overnight, night owl, night flights",
        },
        scale=("early_morning", "morning", "afternoon", "evening", "night"),
        context=_WHEN,
        context_for=frozenset(  # the rest (red eye, night owl, early bird) are times of day in any sentence
            "first thing, morning, mornings, afternoon, afternoons, midday, lunchtime, after lunch, evening, "
            "evenings, after work, after dinner, overnight, before work".split(", ")
        ),
        label="time of day",
    ),
    _a(
        "price.level",
        "price budget cost tier range category fare",
        {
            "budget": "cheap, cheaper, cheapest, budget, affordable, inexpensive, low cost, economical, bargain, frugal, save money, saving money",
            "moderate": "mid range, midrange, moderate, moderately priced, reasonably priced, mid priced",
            "premium": "luxury, luxurious, high end, upscale, premium, fancy, splurge, five star, 5 star, deluxe, top tier, pricey, expensive",
        },
        scale=("budget", "moderate", "premium"),
        label="price",
    ),
    _a(
        "exercise.intensity",
        "intensity impact difficulty effort pace workout exercise",
        {
            "low": "low impact, low intensity, gentle, easy, light, walking, yoga, stretching, restorative, swimming",
            "moderate": "moderate, medium intensity, moderate intensity",
            "high": "high intensity, intense, hiit, hard, vigorous, running, sprints, sprinting, jumping, heavy lifting, crossfit, high impact",
        },
        scale=("low", "moderate", "high"),
        context=_FITNESS,
        label="intensity",
    ),
    _a(
        "food.allergen",
        "allergy allergies allergen allergens exclude exclusions restrictions ingredients avoid",
        {
            "peanut": "peanut, peanuts, peanut butter",
            "tree_nut": "tree nuts, nuts, nut, almonds, cashews, walnuts, pecans, hazelnuts",
            "gluten": "gluten, wheat",
            "dairy": "dairy, lactose, milk products",
            "shellfish": "shellfish, shrimp, prawns, lobster, crab",
            "egg": "eggs, egg",
            "soy": "soy, tofu",
            "sesame": "sesame",
        },
        exclusive=False,
        label="allergens",
    ),
    _a(
        "person.gender",
        "gender clinician instructor doctor driver",
        {
            "female": "female, a woman, women, female doctor, female doctors, woman doctor, lady doctor",
            "male": "male, a man, men, male doctor, male doctors",
        },
        context=r"doctor|dentist|therapist|gp|clinician|physician|instructor|trainer|coach|nurse|driver|stylist|counsel|surgeon|midwife|physio",
        label="gender of the professional",
    ),
    _a(
        "meeting.mode",
        "mode format attend consultation",
        {
            "in_person": "in person, in-person, face to face, face-to-face, on site, onsite, in the office",
            "video": "video, video call, video calls, zoom, facetime, video chat, online",
            "phone": "phone, phone call, phone calls, by phone, over the phone, a call",
        },
        context=r"appointment|meeting|call|session|consult|doctor|therapist|gp|visit|check.?up|interview|catch.?up|sync",
        label="how to attend",
    ),
    _a(
        "order.fulfilment",
        "fulfilment fulfillment delivery pickup collect",
        {
            "delivery": "delivery, delivered, home delivery, have it delivered, deliver it",
            "pickup": "pickup, pick up, pick it up, collect, collection, click and collect, in store",
        },
        context=r"order|prescription|pharmacy|groceries|grocery|parcel|package|meds|medication|food|shop",
        label="delivery or pickup",
    ),
    _a(
        "car.transmission",
        "transmission gearbox",
        {"automatic": "automatic, an automatic, automatics", "manual": "manual, stick shift, a stick"},
        context=r"car|drive|driving|rental|rent|transmission|gearbox|gears",
        label="gearbox",
    ),
    _a(
        "text.length",
        "length words word count verbosity detail long short",
        {
            "short": "short, shorter, brief, briefer, concise, succinct, to the point, tl dr, tldr, bite sized, terse, one liner, few lines, short and sweet",
            "medium": "medium length, moderate length",
            "long": "long, longer, detailed, in depth, thorough, comprehensive, lengthy, elaborate, extensive, wordy, verbose, walls of text, wall of text, essays, essay, rambling, more detail",
        },
        scale=("short", "medium", "long"),
        context=_TEXT,
        label="answer length",
    ),
    _a(
        "text.structure",
        "structure format formatting layout",
        {
            "bullets": "bullet points, bullet point, bullets, bulleted, bullet list, bulleted list, as a list, in a list, in list form, lists",
            "numbered": "numbered list, numbered lists, numbered steps, numbered, step by step",
            "prose": "prose, paragraphs, paragraph form, full sentences, flowing text, narrative, plain paragraphs",
        },
        context=_TEXT + r"|bullet|numbered|prose|paragraph",
        implies_when_avoided={"bullets": "prose", "prose": "bullets", "numbered": "prose"},
        label="structure",
    ),
    _a(
        "text.formality",
        "formality register tone",
        {
            "formal": "formal, professional, polished, businesslike",
            "casual": "casual, informal, relaxed, laid back, conversational, chatty",
        },
        context=_TEXT,
        implies_when_avoided={"formal": "casual", "casual": "formal"},
        label="formality",
    ),
    _a(
        "text.tone",
        "tone voice",
        {
            "direct": "direct, blunt, straightforward, no fluff, no nonsense",
            "warm": "warm, friendly, encouraging, empathetic, supportive",
            "playful": "playful, funny, humor, humour, jokes, witty",
            "neutral": "neutral, matter of fact, factual",
        },
        context=_TEXT,
        exclusive=False,
        label="tone",
    ),
    _a(
        "text.emoji",
        "emoji emojis",
        {"emoji": "emoji, emojis, emoticons, smileys, smiley faces"},
        exclusive=False,
        label="emoji",
    ),
    _a(
        "text.jargon",
        "jargon terms language",
        {
            "jargon": "jargon, technical terms, buzzwords, corporate speak, acronyms",
            "plain": "plain language, plain english, simple words, layman's terms, simple language",
        },
        implies_when_avoided={"jargon": "plain"},
        label="jargon",
    ),
)

BY_DIMENSION: dict[str, Attribute] = {a.dimension: a for a in ATTRIBUTES}

# Phrases that contain attribute words but mean something else; they are consumed first.
BLOCKLIST = tuple(
    p.strip()
    for p in """soft drink, soft drinks, soft spot, soft skills, soft launch, hard drive, hard copy, hard time,
    hard day, hard work, hard to, hot dog, hot dogs, hot water, hot weather, hot day, medium rare, medium well,
    short flight, short trip, short walk, short notice, short drive, in short, long time, long day, long flight,
    long weekend, long run, long drive, long trip, as long as, how long, so long, no longer, long story,
    long haul, business trip, business meeting, direct deposit, direct message, direct messages, cold call,
    a cold, the cold, cold weather, shopping list, to do list, todo list, guest list, wish list, reading list,
    playlist, waiting list, waitlist, light bulb, light rail, easy going, take it easy,
    window shopping, heat wave, heatwave, heat pump, heat pumps, heat up, first class mail, economy of, nuts and bolts, in a pinch, chill out,
    run into, not a big deal, black friday, big deal, little bit, the middle of, in the middle""".split(",")
    if p.strip()
)


def _phrase_pattern(phrase: str) -> str:
    parts = [re.escape(w) for w in re.split(r"[\s-]+", phrase) if w]
    body = r"[\s-]+".join(parts)
    return body + r"(?:s|es)?" if phrase[-1].isalpha() else body


@lru_cache(maxsize=1)
def phrase_table() -> tuple[re.Pattern[str], dict[str, list[tuple[str, str]]]]:
    """One regex for every phrase (longest first) and phrase -> [(dimension, value)]."""
    table: dict[str, list[tuple[str, str]]] = {}
    for attr in ATTRIBUTES:
        for value, phrases in attr.values.items():
            for phrase in phrases:
                table.setdefault(normalise_phrase(phrase), []).append((attr.dimension, value))
    for phrase in BLOCKLIST:
        table.setdefault(normalise_phrase(phrase), [])
    ordered = sorted(table, key=len, reverse=True)
    body = "|".join(_phrase_pattern(p) for p in ordered)
    pattern = re.compile(r"(?<![\w'])(?:" + body + r")(?!\w)(?!'(?!s\b))")  # "economy's fine" names economy
    return pattern, table


def normalise_phrase(text: str) -> str:
    return " ".join(re.split(r"[\s_-]+", text.lower().strip()))


def lookup(matched: str) -> list[tuple[str, str]] | None:
    """(dimension, value) pairs for a matched phrase (plural tolerated); [] for a blocklisted one."""
    _, table = phrase_table()
    key = normalise_phrase(matched)
    for cand in (key, key[:-1] if key.endswith("s") else None, key[:-2] if key.endswith("es") else None):
        if cand is not None and cand in table:
            return table[cand]
    return None


@lru_cache(maxsize=64)
def context_re(pattern: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + pattern + r")", re.IGNORECASE)


def avoided_values(attr: Attribute, value: str, *, generic: bool) -> list[str]:
    """Values excluded by avoiding ``value``: on a scale, everything on its side of the middle.

    A generic word ("spicy") avoided excludes from the middle of the scale upwards.
    """
    if not attr.scale or value not in attr.scale:
        return [value]
    rank = attr.scale.index(value)
    mid = (len(attr.scale) - 1) / 2
    if generic and rank > mid:
        rank = int(mid) + 1 if len(attr.scale) % 2 == 0 else int(mid)
        rank = max(rank, 1)
    if rank > mid:
        return list(attr.scale[rank:])
    if rank < mid:
        return list(attr.scale[: rank + 1])
    return [value]


@dataclass(frozen=True)
class StateType:
    """A temporary state (an injury, a trip) and what it implies while it lasts."""

    name: str
    trigger: str  # regex over normalised text
    days: float  # default length when the user gives no end
    implies: tuple[tuple[str, str, int], ...] = ()  # (dimension, value, polarity)
    label: str = ""
    long_days: float = 0.0  # length when ``long_if`` matches (a fracture rather than a sprain)
    long_if: str = ""


_SOFT_NOT_SPICY = (
    ("food.texture", "soft", 1),
    ("food.texture", "crunchy", -1),
    ("food.spice", "none", 1),
    ("food.spice", "medium", -1),
)
_BLAND = (("food.spice", "none", 1), ("food.spice", "medium", -1))
_LOW_IMPACT = (("exercise.intensity", "low", 1), ("exercise.intensity", "moderate", -1))
_NO_ALCOHOL = (("drink.alcohol", "alcohol", -1), ("drink.alcohol", "none", 1))
_LIMB = r"ankle|knee|foot|feet|leg|hip|achilles|hamstring|toe|calf|acl|meniscus|wrist|arm|hand|shoulder|elbow|back|finger|thumb|ribs?"

STATES: tuple[StateType, ...] = (
    StateType(
        "dental",
        r"\b(?:tooth|teeth|molars?)\b[^.]{0,40}?\b(?:pulled|out|extract\w*|removed|taken out|yanked)\b|"
        r"\b(?:tooth|dental|wisdom[- ]teeth|wisdom[- ]tooth) (?:extraction|surgery|removal|work)\b|"
        r"\b(?:pulled|extracted|removed|took out|taken out|yanked)\b[^.]{0,25}?\b(?:tooth|teeth|molars?)\b|"
        r"\b(?:extraction|root canal|oral surgery|dental implant|gum surgery)\b|\bbraces (?:tightened|adjusted|put on)\b|\bgot (?:my )?braces\b",
        7,
        _SOFT_NOT_SPICY,
        "dental work",
    ),
    StateType(
        "throat",
        r"\bsore throat\b|\bstrep\b|\btonsil\w*\b|\bthroat (?:infection|surgery)\b|\blaryngitis\b|\bmouth ulcers?\b|\bcanker sores?\b|\bjaw (?:surgery|pain)\b",
        5,
        _SOFT_NOT_SPICY,
        "sore mouth or throat",
    ),
    StateType(
        "stomach",
        r"\bstomach (?:bug|flu|ache|issues|upset|problems|is (?:off|upset|acting up))\b|\bupset stomach\b|\bfood poisoning\b|"
        r"\bgastr\w+\b|\bacid reflux\b|\bheartburn\b|\bulcer\b|\bnause\w+\b|\bibs flare\b",
        5,
        _BLAND,
        "upset stomach",
    ),
    StateType(
        "injury",
        rf"\b(?:sprain\w*|twist\w*|broke|broken|fractur\w*|injur\w*|hurt|pulled|tore|torn|rolled|dislocat\w*|bruised)\b[^.]{{0,25}}?\b(?:{_LIMB})\b|"
        r"\b(?:on crutches|in a cast|knee surgery|walking boot|leg brace|in a sling|arm in a sling)\b",
        21,
        _LOW_IMPACT,
        "injury",
        long_days=42,
        long_if=r"\b(?:broke|broken|fractur\w*|cast|surgery|crutches|torn|tore)\b",
    ),
    StateType(
        "surgery",
        r"\b(?:had|having|getting|got|recovering from|after|post[- ]?op)\b[^.]{0,20}?\b(?:surgery|operation)\b",
        14,
        _LOW_IMPACT,
        "recovery from surgery",
    ),
    StateType(
        "pregnancy",
        r"\bpregnan\w*\b|\bexpecting (?:a baby|twins)\b|\b(?:first|second|third) trimester\b",
        270,
        (("drink.caffeine", "decaf", 1), ("drink.caffeine", "regular", -1)) + _NO_ALCOHOL,
        "pregnancy",
    ),
    StateType(
        "illness",
        r"\b(?:a|the|bad|nasty|head|chest) (?:cold|flu)\b(?! (?:brew|drinks?|water|weather|snap|front|shoulder|call|case|storage|room|war|one|ones|side|start|feet))|\bfever\b|\bcovid\b|\bunder the weather\b|\bfeeling (?:sick|ill|rough)\b|\bcoming down with\b",
        7,
        (),
        "illness",
    ),
    StateType(
        "exams",
        r"\b(?:exams?|finals|midterms)\b|\b(?:crunch time|deadline week|busy week|busy month|crazy week)\b",
        7,
        (),
        "busy period",
    ),
    StateType(
        "travel",
        r"\b(?:travell?ing|on a trip|abroad|out of town|on vacation|on holiday|away (?:for|until|till|on)|trip to)\b",
        7,
        (),
        "travel",
    ),
    StateType(
        "sober",
        r"\bdry (?:january|july)\b|\bsober (?:october|month|for)\b|\b(?:not drinking|off (?:the )?(?:booze|alcohol))\b",
        30,
        _NO_ALCOHOL,
        "not drinking",
    ),
    StateType("fasting", r"\b(?:fasting|ramadan|lent)\b", 30, (), "fasting"),
)

# Words that end a state early ("the cast came off", "feeling better").
RECOVERY = re.compile(
    r"\b(?:healed|recovered|all better|feeling (?:much )?better|back to normal|fully recovered|good as new|"
    r"cast (?:is |came |has come |finally came )?off|stitches (?:are )?out|back on my feet|no longer (?:pregnant|sick|injured)|"
    r"gave birth|had the baby|baby (?:arrived|is here|was born)|back home|back from (?:my |the )?(?:trip|vacation|holiday)|"
    r"(?:exams?|finals) (?:are |is )?(?:over|done|finished)|mouth (?:has )?healed|can eat normally|eating normally)\b"
)
RECOVERY_STATE = (
    ("pregnancy", r"birth|baby|pregnant"),
    ("travel", r"back home|back from"),
    ("exams", r"exam|finals"),
    ("injury", r"cast|feet|injured|ankle|knee|foot|leg|wrist|arm|shoulder|back|hip"),
    ("dental", r"mouth|tooth|teeth|gum|jaw|eat"),
    ("stomach", r"stomach"),
    ("illness", r"cold|flu|fever|sick"),
)

# Enum spellings a tool may use for a canonical value (beyond the value's own phrases).
ENUM_SYNONYMS: dict[str, tuple[str, ...]] = {
    "medium": ("regular", "standard", "normal", "mid", "moderate"),
    "moderate": ("standard", "normal", "mid", "regular", "intermediate", "medium"),
    "none": ("no", "zero", "not spicy", "0"),
    "afternoon": ("lunchtime", "midday", "matinee", "afternoon"),
    "night": ("late", "red eye", "overnight", "late night"),
    "early_morning": ("early", "early morning", "dawn"),
    "regular": ("regular", "standard", "normal"),
    "soft": ("soft", "softer"),
    "budget": ("budget", "economy", "basic", "value"),
    "premium": ("premium", "luxury", "deluxe"),
    "meat": ("omnivore", "none", "standard", "regular", "no restrictions"),
    "low": ("low", "beginner", "gentle", "easy"),
    "high": ("high", "advanced", "intense"),
    "short": ("short", "brief", "headlines", "concise"),
    "long": ("long", "long reads", "detailed", "in depth"),
    "bullets": ("bullets", "bullet points", "list"),
    "skim": ("skimmed", "skim"),
    "semi": ("semi_skimmed", "semi skimmed", "semi"),
}


def keeps_out(dimension: str) -> bool:
    """An attribute whose values name what is kept out (allergens, exclusions): a value of it is said by
    avoiding it, so a dish that holds one ("mapo tofu" and soy) is no wish for it."""
    attr = BY_DIMENSION.get(dimension)
    return attr is not None and bool({"exclude", "allergy"} & set(attr.aliases))
