"""Personas: long-term preferences over every dimension, sampled to stay behaviourally distinct.

Distinctness is measured on behaviour (the vector of preference values that decide tool
arguments and text checks), not on how long a persona's description is: the persona-collapse
finding is that richer descriptions make personas *less* distinct in behaviour.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bench.generator.catalog import all_dims
from bench.generator.world import (
    CAFES,
    CITIES,
    DISHES,
    FIRST_NAMES,
    MEDICATIONS,
    PHARMACIES,
    RESTAURANTS,
    SURNAMES,
)

OCCUPATIONS = (
    "nurse",
    "software engineer",
    "teacher",
    "accountant",
    "graphic designer",
    "electrician",
    "PhD student",
    "shop manager",
    "paramedic",
    "architect",
    "chef",
    "journalist",
    "data analyst",
    "physiotherapist",
    "lawyer",
    "retired postman",
    "barista",
    "civil servant",
    "marketing lead",
    "lab technician",
)
PLANT_MILKS = ("oat", "soy", "almond")
MIN_DISTANCE = 0.6  # minimum normalised Hamming distance to every earlier persona (best effort)


@dataclass
class Persona:
    id: str
    name: str
    age: int
    occupation: str
    prefs: dict[str, Any]  # dimension -> long-term value
    hard_of_hearing: bool = False
    extras: dict[str, str] = field(default_factory=dict)  # favourite restaurant, café, medication...

    @property
    def city(self) -> str:
        return str(self.prefs["home.city"])

    @property
    def first_name(self) -> str:
        return self.name.split()[0]

    def vector(self) -> tuple[Any, ...]:
        """The behavioural preference vector (one value per dimension, sorted by key)."""
        return tuple(self.prefs[k] for k in sorted(self.prefs))

    def describe(self) -> str:
        """A short background line (for reports; agents never see it)."""
        return f"{self.name}, {self.age}, {self.occupation} in {self.city}"


def _choice(rng: random.Random, values: tuple[Any, ...], weights: tuple[float, ...] | None) -> Any:
    return rng.choices(values, weights=weights)[0] if weights else values[rng.randrange(len(values))]


def _harmonise(prefs: dict[str, Any], rng: random.Random, hearing: bool) -> None:
    """Make one persona coherent (a vegan drinks plant milk; a wheelchair user books accessible cars)."""
    if prefs["food.diet"] == "vegan" or prefs["food.allergy"] == "dairy":
        if prefs["drink.milk"] not in PLANT_MILKS:
            prefs["drink.milk"] = rng.choice(PLANT_MILKS)
    if prefs["access.mobility"] == "wheelchair":
        prefs["ride.type"] = "accessible"
    if hearing:
        prefs["tickets.format"] = "subtitled"
        if prefs["appt.mode"] == "phone":
            prefs["appt.mode"] = "video"
        if prefs["meeting.format"] == "phone":
            prefs["meeting.format"] = "video"
    elif prefs["tickets.format"] == "subtitled":
        prefs["tickets.format"] = rng.choice(("standard", "imax", "subtitled"))
    prefs["group.size"] = max(prefs["group.size"], prefs["family.kids"] + 2)
    for like, avoid in (("news.topic", "news.avoid"), ("film.genre", "film.avoid")):
        while prefs[avoid] == prefs[like]:
            prefs[avoid] = rng.choice(all_dims()[avoid].values)


def _sample(rng: random.Random, index: int) -> Persona:
    dims = all_dims()
    prefs = {key: _choice(rng, d.values, d.weights) for key, d in sorted(dims.items())}
    hearing = rng.random() < 0.15
    _harmonise(prefs, rng, hearing)
    name = f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAMES)}"
    cuisine = str(prefs["food.cuisine"])
    extras = {
        "restaurant": rng.choice(RESTAURANTS[cuisine]),
        "dish": rng.choice(DISHES[cuisine]),
        "cafe": rng.choice(CAFES),
        "pharmacy": rng.choice(PHARMACIES),
        "medication": rng.choice(MEDICATIONS),
    }
    return Persona(
        id=f"p{index:03d}",
        name=name,
        age=rng.randint(19, 78),
        occupation=rng.choice(OCCUPATIONS),
        prefs=prefs,
        hard_of_hearing=hearing,
        extras=extras,
    )


def _codes(persona: Persona, keys: list[str]) -> list[int]:
    dims = all_dims()
    return [dims[k].values.index(persona.prefs[k]) for k in keys]


def make_personas(seed: int = 0, count: int = 400, *, tries: int = 30) -> list[Persona]:
    """``count`` personas; each is re-drawn (up to ``tries`` times) until it is far from all earlier ones."""
    import numpy as np

    rng = random.Random(f"personas:{seed}")
    keys = sorted(all_dims())
    table = np.zeros((count, len(keys)), dtype=np.int16)
    out: list[Persona] = []
    for index in range(count):
        best, best_gap, best_row = None, -1.0, None
        for _ in range(tries):
            cand = _sample(rng, index)
            row = np.array(_codes(cand, keys), dtype=np.int16)
            gap = float((table[:index] != row).mean(axis=1).min()) if index else 1.0
            if gap > best_gap:
                best, best_gap, best_row = cand, gap, row
            if gap >= MIN_DISTANCE:
                break
        assert best is not None
        table[index] = best_row
        out.append(best)
    return out


def persona_distinctness(personas: list[Persona]) -> dict[str, Any]:
    """Pairwise normalised Hamming distance over the behavioural preference vectors."""
    import numpy as np

    if len(personas) < 2:
        return {"personas": len(personas), "dimensions": 0}
    keys = sorted(personas[0].prefs)
    codes = np.zeros((len(personas), len(keys)), dtype=np.int32)
    for j, key in enumerate(keys):
        lookup: dict[Any, int] = {}
        for i, p in enumerate(personas):
            codes[i, j] = lookup.setdefault(p.prefs[key], len(lookup))
    dist = np.zeros((len(personas), len(personas)), dtype=np.float64)
    for j in range(len(keys)):
        col = codes[:, j]
        dist += col[:, None] != col[None, :]
    dist /= len(keys)
    upper = dist[np.triu_indices(len(personas), k=1)]
    np.fill_diagonal(dist, np.inf)
    nearest = dist.min(axis=1)
    return {
        "personas": len(personas),
        "dimensions": len(keys),
        "mean_pairwise_hamming": round(float(upper.mean()), 4),
        "min_pairwise_hamming": round(float(upper.min()), 4),
        "mean_nearest_neighbour_hamming": round(float(nearest.mean()), 4),
        "unique_vector_fraction": round(len({p.vector() for p in personas}) / len(personas), 4),
        "cities": len({p.city for p in personas}),
        "city_table": len(CITIES),
    }
