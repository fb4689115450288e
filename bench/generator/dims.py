"""Preference dimensions: their values, how people talk about them, and the checks they imply.

A dimension (``food.spice``) has discrete values. A *binding* ties it to a tool parameter: each
value maps to the argument a persona would pass, and the kind of check follows from the
parameter's JSON type (enum/string/boolean: ``param_in``; number: ``param_range``; array:
``param_contains_any``). A *text rule* maps a value to text checks for generation tasks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ibachat.agent.execution.tools import REGISTRY

Expect = tuple[str, dict[str, Any]]  # (check kind, expect)


@dataclass(frozen=True)
class Binding:
    tool: str
    param: str
    arg: Mapping[Any, Any]  # dim value -> argument value (None: no constraint on this param)
    accept: Mapping[Any, Any] = field(default_factory=dict)  # dim value -> accepted list / (lo, hi)
    kind: str | None = None  # force a check kind (e.g. param_contains_any on a free-text param)

    @property
    def ptype(self) -> str:
        return str(REGISTRY[self.tool].parameters["properties"][self.param].get("type", "string"))

    @property
    def target(self) -> str:
        return f"{self.tool}.{self.param}"


@dataclass(frozen=True)
class Dim:
    key: str
    values: tuple[Any, ...]
    phrases: Mapping[Any, tuple[str, ...]]  # value -> ways a person names it
    topics: tuple[str, ...]  # ways a person names the area ("spice", "my takeaways")
    bindings: tuple[Binding, ...] = ()
    text: Mapping[Any, tuple[Expect, ...]] = field(default_factory=dict)
    asks: Mapping[Any, tuple[str, ...]] = field(default_factory=dict)  # behaviour lines for text dims
    weights: tuple[float, ...] | None = None
    rubric: Mapping[Any, str] = field(default_factory=dict)  # judge rubric per value
    rejectable: bool = True
    stance: str = "like"  # how a statement is voiced: like (a taste), have (a condition), need, usually

    def binding(self, tool: str) -> Binding | None:
        """The binding that carries this dimension's argument on ``tool`` (prohibitions carry none)."""
        return next((b for b in self.bindings if b.tool == tool and b.kind != "param_contains_none"), None)


def ident(values: Sequence[Any], skip: Sequence[Any] = ()) -> dict[Any, Any]:
    return {v: (None if v in skip else v) for v in values}


def p(**kw: Sequence[str]) -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in kw.items()}


def exact(values: Sequence[int]) -> dict[Any, Any]:
    return {v: v for v in values}


MEAT = ["chicken", "beef", "pork", "lamb", "bacon", "ham", "turkey", "sausage", "steak"]
FISH = ["salmon", "tuna", "cod", "prawns", "shrimp", "anchovies"]
ANIMAL = ["cheese", "butter", "cream", "egg", "eggs", "honey", "yogurt", "yoghurt"]
SPICY = ["spicy", "chilli", "chili", "jalapeño", "hot sauce", "sriracha"]
ALLERGENS = {
    "peanuts": ["peanut", "peanuts", "peanut butter", "satay"],
    "shellfish": ["shrimp", "prawn", "prawns", "lobster", "crab", "mussels", "scallops"],
    "dairy": ["cheese", "butter", "cream", "milk", "yogurt", "yoghurt"],
    "gluten": ["wheat", "pasta", "bread", "couscous", "barley", "flour tortilla"],
}
EMOJI = ["🙂", "😊", "🎉", "👍", "❤️", "😄", "🙌", "✨"]
SIGNOFFS = (
    "Cheers",
    "Kind regards",
    "Best wishes",
    "Warm wishes",
    "Many thanks",
    "Yours sincerely",
    "Talk soon",
    "Take care",
    "All the best",
    "With gratitude",
)
AVOID = (
    "I hope this email finds you well",
    "circle back",
    "touch base",
    "per my last email",
    "reach out",
    "synergy",
    "at the end of the day",
    "just checking in",
    "no worries",
    "low-hanging fruit",
)
TOPIC_WORDS = {
    "world": ["world news", "international", "foreign affairs"],
    "politics": ["politics", "election", "parliament", "senate"],
    "business": ["business", "markets", "economy", "earnings"],
    "technology": ["technology", "tech", "software", "AI"],
    "science": ["science", "research", "scientists"],
    "climate": ["climate", "emissions", "renewable"],
    "health": ["health", "medicine", "public health"],
    "sport": ["sport", "football", "tennis", "league"],
    "culture": ["culture", "arts", "film", "music"],
    "local": ["local news", "city council", "neighbourhood"],
}
FILM = {
    "documentary": ["documentary", "documentaries"],
    "comedy": ["comedy", "comedies"],
    "thriller": ["thriller", "thrillers"],
    "science fiction": ["science fiction", "sci-fi"],
    "animation": ["animated", "animation"],
    "drama": ["drama", "dramas"],
    "horror": ["horror"],
    "romance": ["romance", "romantic comedy", "romcom"],
}
BOOKS = {
    "mystery": ["mystery", "mysteries", "crime novel"],
    "fantasy": ["fantasy"],
    "biography": ["biography", "biographies", "memoir"],
    "history": ["history", "historical"],
    "science fiction": ["science fiction", "sci-fi"],
    "poetry": ["poetry", "poems"],
    "self-help": ["self-help"],
    "literary fiction": ["literary fiction", "literary novel"],
}
ACTIVITY = {
    "swimming": ["swimming", "swim", "pool"],
    "cycling": ["cycling", "bike", "ride"],
    "running": ["running", "run", "jog"],
    "yoga": ["yoga"],
    "climbing": ["climbing", "bouldering"],
    "rowing": ["rowing", "rowing machine"],
    "walking": ["walking", "walk", "hike"],
    "dancing": ["dancing", "dance class"],
}
CUISINE = {
    "thai": ["Thai"],
    "italian": ["Italian"],
    "japanese": ["Japanese", "sushi", "ramen"],
    "mexican": ["Mexican", "tacos"],
    "indian": ["Indian", "curry house"],
    "lebanese": ["Lebanese", "mezze"],
    "korean": ["Korean"],
    "ethiopian": ["Ethiopian", "injera"],
}


Add = Callable[..., None]


class Catalog:
    """Collects dimensions; ``add`` takes phrases keyed by ``str(value)``."""

    def __init__(self) -> None:
        self.items: list[Dim] = []

    def add(
        self,
        key: str,
        values: Sequence[Any],
        phrases: Mapping[str, Sequence[str]],
        topics: Sequence[str],
        **kw: Any,
    ) -> None:
        table = {v: tuple(phrases[str(v)]) for v in values}
        self.items.append(Dim(key, tuple(values), table, tuple(topics), **kw))


def b(
    tool: str,
    param: str,
    arg: Mapping[Any, Any],
    accept: Mapping[Any, Any] | None = None,
    kind: str | None = None,
) -> Binding:
    """A binding of a dimension to ``tool.param``."""
    return Binding(tool, param, arg, accept or {}, kind)
