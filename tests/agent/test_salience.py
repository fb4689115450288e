"""Cue detection and salience scoring: paraphrases, negation, speakers, recency."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from ibachat.agent.retrieval.salience import (
    CUE_WEIGHTS,
    RECENCY_WEIGHT,
    SALIENCE_GAIN,
    age_label,
    detect_cues,
    drop_near_duplicates,
    in_force,
    mmr,
    past_calls_summary,
    recency,
    score_turn,
    select,
)
from memory.types import Turn

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def turn(text: str, role: str = "user", days_ago: float = 1.0, tool_call: dict | None = None) -> Turn:
    return Turn(1, "s1", role, text, NOW - timedelta(days=days_ago), tool_call=tool_call)


@pytest.mark.parametrize(
    "text",
    [
        "actually no, make it the window seat, I can't stand being squeezed by the aisle",
        "Actually, I'd like the vegetarian option",
        "I told you I wanted it in blue",
        "like I said, tuesdays don't work",
        "that's not what I asked for",
        "you got it wrong, the meeting is at four",
        "change it to the larger size please",
        "Scratch that. Make it two tickets",
        "I never asked for extra cheese",
        "not the red one, but the green one",
    ],
)
def test_corrections_in_many_phrasings(text):
    assert "correction" in detect_cues(text).labels


@pytest.mark.parametrize(
    "text",
    [
        "no, the other one",
        "Nope. Not that one",
        "I don't want the salmon",
        "please don't book that hotel again",
        "no thanks",
        "that doesn't work for me",
        "never again with that airline",
        "I'd rather not",
        "not interested",
    ],
)
def test_rejections_in_many_phrasings(text):
    assert "rejection" in detect_cues(text).labels


@pytest.mark.parametrize(
    "text",
    [
        "no problem, see you then",
        "No worries at all",
        "that actually sounds great",
        "no idea what time it is",
        "It looks like rain",
        "the weather is terrible again",
    ],
)
def test_fillers_are_not_corrections_or_rejections(text):
    labels = detect_cues(text).labels
    assert "correction" not in labels and "rejection" not in labels


@pytest.mark.parametrize(
    "text",
    [
        "I switched to oat milk",
        "I don't eat meat anymore",
        "from now on keep the summaries short",
        "these days I prefer tea",
        "I no longer drive to work",
        "I changed my mind about the gym",
        "I used to love horror films",
        "now I mostly cycle to the office",
    ],
)
def test_updates(text):
    assert "update" in detect_cues(text).labels


@pytest.mark.parametrize(
    "text",
    [
        "had my wisdom tooth pulled on Monday, soft food only for a while",
        "I sprained my ankle last week",
        "I'm pregnant so no sushi for me",
        "I'm on a diet until the wedding",
        "I've got the flu",
        "exams all this week, very stressed",
        "I'm travelling for work until Friday",
        "my doctor said to cut back on salt",
        "had a molar taken out on Tuesday, nothing crunchy for ten days",
    ],
)
def test_temporary_states(text):
    assert "temporary state" in detect_cues(text).labels


def test_negated_state_is_not_a_current_state():
    cues = detect_cues("I'm not sick anymore")
    assert "temporary state" not in cues.labels
    assert "state ended" in cues.labels and "update" in cues.labels
    assert "temporary state" not in detect_cues("I'm not pregnant").labels


def test_negated_habit_is_not_a_habit():
    assert "habit" in detect_cues("I usually skip breakfast").labels
    assert "habit" not in detect_cues("I don't usually skip breakfast").labels


@pytest.mark.parametrize(
    "text",
    [
        "I love really spicy curries",
        "I prefer evening flights",
        "I don't like loud restaurants",
        "my favourite is the corner bakery",
        "I'm allergic to peanuts",
        "I can't stand long meetings",
        "I'd rather walk",
        "keep emails to my boss short and formal",
        "no emojis please",
    ],
)
def test_preferences_including_negative_ones(text):
    assert "preference" in detect_cues(text).labels


def test_first_person_and_question():
    cues = detect_cues("Should I get the aisle?")
    assert cues.question and cues.first_person
    assert not detect_cues("The train was late").first_person


def test_recency_halves_every_sixty_days_and_labels():
    assert recency(NOW, NOW) == pytest.approx(1.0)
    assert recency(NOW - timedelta(days=60), NOW) == pytest.approx(0.5)
    assert recency(NOW + timedelta(days=3), NOW) == pytest.approx(1.0)
    assert age_label(NOW - timedelta(hours=2), NOW) == "today"
    assert age_label(NOW - timedelta(days=1, hours=1), NOW) == "yesterday"
    assert age_label(NOW - timedelta(days=12), NOW) == "12 days ago"
    assert age_label(NOW - timedelta(days=95), NOW) == "3 months ago"
    assert age_label(NOW - timedelta(days=800), NOW) == "2 years ago"


def test_correction_outranks_older_habit_at_equal_relevance():
    correction, why = score_turn(turn("actually no, make it the window seat", days_ago=20), 0.5, NOW)
    habit, _ = score_turn(turn("I always pick the aisle seat, I love it", days_ago=200), 0.5, NOW)
    assert correction > habit
    assert why[:1] == ["correction"] and "20 days ago" in why
    # Even a correction with no pronoun and a habit restated today: the correction still leads.
    today, _ = score_turn(turn("I always pick the aisle seat", days_ago=0), 0.5, NOW)
    assert correction > today


def test_recency_alone_never_beats_a_correction():
    # The whole recency range is smaller than a correction's weight.
    assert RECENCY_WEIGHT < CUE_WEIGHTS["correction"]
    old_fix, _ = score_turn(turn("that's wrong, it should be the window", days_ago=2000), 0.3, NOW)
    fresh, _ = score_turn(turn("I went for the aisle seat", days_ago=0), 0.3, NOW)
    assert old_fix > fresh


def test_assistant_claim_ranks_below_the_users_own_statement():
    claim, why = score_turn(turn("You mentioned you prefer morning flights.", role="assistant"), 0.8, NOW)
    own, _ = score_turn(turn("I prefer evening flights", role="user"), 0.8, NOW)
    assert own > claim
    assert "assistant's words (discounted)" in why


def test_past_call_of_the_same_tool_is_strong_evidence():
    call = {"name": "order_food", "arguments": {"dish": "curry", "spice": "hot"}}
    same, why = score_turn(turn("ordered", role="tool", tool_call=call), 0.3, NOW, tool_name="order_food")
    other, _ = score_turn(turn("ordered", role="tool", tool_call=call), 0.3, NOW, tool_name="book_taxi")
    assert same > other
    assert "past call of order_food: dish=curry, spice=hot" in why


def test_repeats_add_a_bounded_bonus():
    once, _ = score_turn(turn("I take my coffee black"), 0.5, NOW)
    many, why = score_turn(turn("I take my coffee black"), 0.5, NOW, repeats=30)
    assert once < many <= once + 0.2 + 1e-9
    assert "said 31 times" in why


def _unit(rows: list[list[float]]) -> np.ndarray:
    mat = np.asarray(rows, dtype=np.float32)
    return mat / np.linalg.norm(mat, axis=1, keepdims=True)


def test_near_duplicates_fold_into_the_first_in_order():
    vecs = _unit([[1, 0, 0], [1, 0.01, 0], [0, 1, 0], [0.999, 0.02, 0], [0, 0, 1]])
    kept = drop_near_duplicates([2, 1, 0, 3, 4], vecs @ vecs.T)
    assert kept == {2: 0, 1: 2, 4: 0}  # 0 and 3 are copies of 1, which came first


def test_mmr_trades_salience_for_diversity():
    vecs = _unit([[1, 0], [1, 0.05], [0, 1]])
    sims = vecs @ vecs.T
    assert mmr([1.0, 0.95, 0.6], sims, 2) == [0, 2]  # the near-copy of 0 loses to a different turn
    assert mmr([1.0, 0.95, 0.6], sims, 2, lam=1.0) == [0, 1]  # pure salience
    assert mmr([1.0, 0.5], sims[:2, :2], 5) == [0, 1]


def test_past_calls_summary_counts_the_usual_value():
    calls = [{"spice": "hot", "size": "large"}, {"spice": "hot"}, {"spice": "mild", "size": "large"}, None]
    assert past_calls_summary(calls) == "spice=hot 2/4, size=large 2/4"


def test_salience_is_a_bounded_multiplicative_bonus():
    loud = turn("actually no, I told you, I hate that, never again, I'm sick this week")
    assert score_turn(loud, 0.0, NOW)[0] == 0.0  # an irrelevant turn stays at 0, whatever its cues
    loud_score, _ = score_turn(loud, 0.3, NOW, repeats=9)
    assert loud_score <= 0.3 * (1 + SALIENCE_GAIN) + 1e-9
    plain, _ = score_turn(turn("the train to Leeds leaves at 9", days_ago=400), 0.7, NOW)
    assert plain > loud_score  # a clearly more relevant turn keeps its place


def test_a_state_holds_while_it_lasts_a_correction_until_replaced():
    assert in_force(["temporary state"], NOW - timedelta(days=2), NOW) > 0.8
    assert in_force(["temporary state"], NOW - timedelta(days=90), NOW) < 0.02
    assert in_force(["correction"], NOW - timedelta(days=900), NOW) == 1.0
    assert 0.3 <= in_force(["preference"], NOW - timedelta(days=900), NOW) < 0.4
    assert in_force([], NOW, NOW) == 0.0


def test_select_discounts_restatements_not_related_turns():
    vecs = _unit([[1, 0, 0], [1, 0.1, 0], [1, 0.9, 0], [0, 1, 0]])
    sims = vecs @ vecs.T  # 0~1 restate each other (0.995); 0 and 2 are related (0.74)
    picks = select([1.0, 0.95, 0.9, 0.5], sims, 3)
    assert [i for i, _ in picks] == [0, 2, 3]  # the restatement loses its place, the related turn keeps it
    values = [v for _, v in picks]
    assert values == sorted(values, reverse=True) and values[:2] == [1.0, 0.9]
    assert [i for i, _ in select([1.0, 0.95, 0.9, 0.5], sims, 3, similar=1.0)] == [0, 1, 2]


@pytest.mark.parametrize(
    "text",
    [
        "A phone notification, like last time.",
        "Make a note of it. (bullet points, obviously)",
        "as before, a quiet room",
    ],
)
def test_the_usual_taken_as_read_is_a_habit(text):
    assert "habit" in detect_cues(text).labels


def test_liking_last_time_is_no_habit():
    assert "habit" not in detect_cues("I liked the last time we went there").labels
