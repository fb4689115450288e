"""Incremental BM25 (k1=0.9, b=0.4: Anserini's defaults for short passages) over turn texts.

Each document gets a slot; each term keeps two growable arrays (slots, term counts).
Adding a document costs O(its tokens). Removing one marks its slot dead; dead entries
are skipped at search time and dropped by a compaction once they outnumber the live
ones. Document frequencies are counted from live postings at query time, so removal
never has to visit a document's terms.

Search is term-at-a-time in numpy. A term's live postings and their BM25 scores are
kept between searches (``_Postings``): a write drops the entries of the terms it touches
(a removal drops all), and the scores are recomputed when the mean length or idf moves. The
top ``k`` is found without sorting every match: the term scores are summed in float32 (half
the memory traffic of float64), the k-th best sum of a 1-in-8 sample is a lower bound of the
true k-th best, and only the few documents within float32 error of it are scored exactly in
float64, term by term in query order as a full sum would, so hits, scores and their order are
those of an exact float64 BM25 (tests/memory/test_lexical_exact.py checks it by brute force).

File: an ``.npz`` (no pickle) holding ids, lengths, the vocabulary and the postings in
CSR form, written atomically.
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np

from memory.atomic import atomic_write_bytes
from memory.errors import BadInput, CorruptFile
from memory.types import Hit

K1 = 0.9
B = 0.4
MAX_TOKENS = 20_000  # tokens indexed per document; the rest of a huge text is ignored
MAX_TOKEN_CHARS = 64  # longer "words" (hashes, base64) are cut to this length
SAMPLE_STRIDE = 8  # every 8th score estimates the top-k threshold (see the module docstring)
EXACT_LIMIT = 4096  # candidates scored one by one; more (ties) are summed over every slot
UNION_LIMIT = 4096  # query terms with at most this many postings in all: every one is a candidate
FORMAT_VERSION = 2  # 2: Snowball English stems (1: plurals folded only; rebuilt on open)

_WORD = re.compile(r"[^\W_]+")
STOPWORDS = frozenset(
    """a an and are as at be been but by can could did do does for from had has have he her
    hers him his i if in into is it its just me my of on or our ours s she so t than that the
    their them then there these they this those to too us was we were what when where which
    while who whom will with would you your yours""".split()
)


@lru_cache(maxsize=1)
def _english() -> Any:
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=131072)
def _stem(word: str) -> str:
    """Snowball's English (Porter 2) stem of a plain ASCII word ("camping", "camped" and "camps"
    all index as "camp"); numbers, mixed tokens, other scripts and short words unchanged."""
    if len(word) <= 3 or not (word.isascii() and word.isalpha()):
        return word
    return str(_english().stemWord(word))


def _pairs(text: str, limit: int = MAX_TOKENS) -> Iterator[tuple[str, str]]:
    """(lowercased word, index term) for the first ``limit`` words, stopwords left out."""
    for match in islice(_WORD.finditer(text), limit):
        word = match.group().lower()[:MAX_TOKEN_CHARS]
        if word not in STOPWORDS:
            yield word, _stem(word)


def tokenize(text: str) -> list[str]:
    """Index terms of ``text``: lowercase unicode words, stopwords dropped, English words stemmed."""
    return [term for _, term in _pairs(text)]


class _Postings:
    """One term's live postings as numpy arrays, and their BM25 scores for one mean length and idf.

    ``scores`` (float64) are the exact term scores; ``approx()`` gives them as float32, which
    the multi-term search sums to pick candidates before it scores those exactly.
    """

    __slots__ = ("slots", "tfs", "scores", "key", "_approx", "top")

    def __init__(self, slots: np.ndarray, tfs: np.ndarray) -> None:
        self.slots, self.tfs = slots, tfs  # int32, slots ascending
        self.scores = np.zeros(0)
        self.key = (-1.0, -1.0)
        self._approx: np.ndarray | None = None
        self.top = 0.0  # the largest of ``approx()``

    def scored(self, avgdl: float, idf: float, slot_len: np.ndarray) -> np.ndarray:
        """idf tf (k1 + 1) / (tf + k1 (1 - b + b len / avgdl)) per posting, kept while both hold."""
        if self.key != (avgdl, idf):
            tfs = self.tfs.astype(np.float64)
            norm = K1 * (1.0 - B + B * slot_len[self.slots].astype(np.float64) / avgdl)
            self.scores = idf * tfs * (K1 + 1.0) / (tfs + norm)
            self.key = (avgdl, idf)
            self._approx = None
        return self.scores

    def approx(self) -> np.ndarray:
        """``scores`` as float32 (after ``scored``), and ``top`` their largest."""
        if self._approx is None:
            self._approx = self.scores.astype(np.float32)
            self.top = float(self._approx.max(initial=0.0))
        return self._approx

    def lookup(self, slots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For int32 ``slots``: whether this term holds each one, and where (clipped)."""
        pos = np.minimum(np.searchsorted(self.slots, slots), len(self.slots) - 1)
        return self.slots[pos] == slots, pos


class LexicalIndex:
    """BM25 search by turn id. Not thread-safe: one writer, and no search during a write."""

    def __init__(self) -> None:
        self._vocab: dict[str, int] = {}
        self._terms: list[str] = []
        self._post_slots: list[array] = []
        self._post_tfs: list[array] = []
        self._slot_id = np.zeros(0, dtype=np.int64)
        self._slot_len = np.zeros(0, dtype=np.int32)
        self._alive = np.zeros(0, dtype=bool)
        self._slots = 0  # slots used, live or dead
        self._id_slot: dict[int, int] = {}
        self._total_len = 0  # tokens in live documents
        self._cache: dict[int, _Postings] = {}  # term id -> live postings, kept between searches
        self.dirty = False
        self.outdated = False  # loaded from an older format: empty, to be rebuilt (``load``)

    # ----- contents ------------------------------------------------------------------

    def add(self, ids: Sequence[int], texts: Sequence[str]) -> None:
        """Index ``texts`` under ``ids``; an id already present is replaced."""
        if len(ids) != len(texts):
            raise BadInput(f"{len(ids)} ids for {len(texts)} texts")
        for raw_id, text in zip(ids, texts):
            if not isinstance(text, str):
                raise BadInput(f"turn {raw_id}: text must be a string, not {type(text).__name__}")
            doc_id = int(raw_id)
            if doc_id in self._id_slot:
                self._kill(doc_id)
            terms = tokenize(text)
            slot = self._new_slot(doc_id, len(terms))
            for term, tf in Counter(terms).items():
                tid = self._vocab.get(term)
                if tid is None:
                    tid = len(self._terms)
                    self._vocab[term] = tid
                    self._terms.append(term)
                    self._post_slots.append(array("i"))
                    self._post_tfs.append(array("i"))
                self._post_slots[tid].append(slot)
                self._post_tfs[tid].append(tf)
                self._cache.pop(tid, None)
            self.dirty = True
        self._maybe_compact()

    def remove(self, ids: Iterable[int]) -> int:
        """Remove these ids (absent ones are ignored); returns how many were removed."""
        removed = sum(1 for doc_id in ids if self._kill(int(doc_id)))
        if removed:
            self.dirty = True
            self._maybe_compact()
        return removed

    def ids(self) -> np.ndarray:
        return self._slot_id[: self._slots][self._alive[: self._slots]].copy()

    def __len__(self) -> int:
        return len(self._id_slot)

    def term_weights(self, query: str) -> dict[str, float]:
        """Each query word (as ``Hit.why`` names it) -> the BM25 idf of its term here; a word no
        document holds weighs what a term of one document would (it is a specific word, just not
        in memory), so the share of a query's weight a hit matches says how much of it the hit covers."""
        live = len(self._id_slot)
        out: dict[str, float] = {}
        if live == 0:
            return out  # nothing to weigh against
        seen: set[str] = set()
        for word, term in _pairs(query):
            if term in seen:
                continue
            seen.add(term)
            tid = self._vocab.get(term)
            df = len(self._postings(tid).slots) if tid is not None else 0
            out[word] = math.log(1.0 + (live - max(df, 1) + 0.5) / (max(df, 1) + 0.5))
        return out

    def __contains__(self, id: object) -> bool:
        return isinstance(id, (int, np.integer)) and int(id) in self._id_slot

    # ----- search --------------------------------------------------------------------

    def search(self, query: str, k: int = 10, *, allowed: set[int] | None = None) -> list[Hit]:
        """BM25 top ``k``; ``Hit.why = {"terms": [query words that matched]}``."""
        live = len(self._id_slot)
        if k <= 0 or live == 0 or (allowed is not None and not allowed):
            return []
        words: dict[str, str] = {}  # term -> first query word that produced it
        for word, term in _pairs(query):
            words.setdefault(term, word)
        n = self._slots
        avgdl = max(self._total_len / live, 1e-9)
        matched: list[tuple[str, _Postings]] = []
        contrib: list[np.ndarray] = []
        for term, word in words.items():
            tid = self._vocab.get(term)
            if tid is None:
                continue
            post = self._postings(tid)
            df = len(post.slots)
            if df == 0:
                continue
            idf = math.log(1.0 + (live - df + 0.5) / (df + 0.5))
            contrib.append(post.scored(avgdl, idf, self._slot_len))
            matched.append((word, post))
        if not matched:
            return []
        cand = cs = None
        held: list[np.ndarray] | None = None  # per term: does it hold each of cand
        if len(matched) == 1:
            cand, cs = matched[0][1].slots, contrib[0]
            held = [np.ones(len(cand), dtype=bool)]
        elif allowed is None:
            cand = self._candidates([post for _, post in matched], k)
            if cand is not None:
                cs, held = self._exact(matched, cand)
        if cand is None or cs is None:  # exact sums over every slot (a subset, or many ties)
            scores = np.zeros(n, dtype=np.float64)
            for (_, post), part in zip(matched, contrib):
                np.add.at(scores, post.slots, part)  # a term's slots are distinct: one add each
            cand = self._above_threshold(scores, k) if allowed is None else np.flatnonzero(scores)
            cand = cand.astype(np.int32)
            cs = scores[cand]
        pick = np.arange(len(cand))  # positions in cand of the hits kept so far
        if allowed is not None and len(cand):
            ids = self._slot_id[cand].tolist()
            pick = pick[np.fromiter((i in allowed for i in ids), dtype=bool, count=len(ids))]
        if len(pick) == 0:
            return []
        ranked = np.round(cs[pick], 9)  # equal up to summation order is a tie, broken by id
        if k < len(pick):  # the k best, and every score tied with the k-th, then ordered
            kth = np.partition(ranked, len(ranked) - k)[len(ranked) - k]
            keep = ranked >= kth
            pick, ranked = pick[keep], ranked[keep]
        pick = pick[np.lexsort((self._slot_id[cand[pick]], -ranked))[:k]]
        slots = cand[pick]
        if held is None:
            found = [post.lookup(slots)[0].tolist() for _, post in matched]
        else:
            found = [h[pick].tolist() for h in held]
        words_of = [word for word, _ in matched]
        return [
            Hit(doc_id, score, {"terms": [w for w, f in zip(words_of, found) if f[j]]})
            for j, (doc_id, score) in enumerate(zip(self._slot_id[slots].tolist(), cs[pick].tolist()))
        ]

    def _candidates(self, posts: list[_Postings], k: int) -> np.ndarray | None:
        """Slots (int32) that may be in the top ``k``, from float32 sums of the term scores.

        A float32 sum is within ``tol`` of the float64 one. The k-th best sum of a 1-in-8 sample
        is a lower bound ``b`` of the true k-th best sum; the slots within ``2 tol`` (and the tie
        rounding of ``search``) of ``b`` hold the true k-th best sum, and then only those within
        that margin of it can be in the top ``k``. Terms with few postings in all give all their
        slots. None when more remain than are worth scoring one by one (a tie over a large share
        of the index).
        """
        if sum(len(post.slots) for post in posts) <= UNION_LIMIT:  # rare terms: all their slots
            union = np.sort(np.concatenate([post.slots for post in posts]))
            return union[np.concatenate(([True], union[1:] != union[:-1]))]
        acc = np.zeros(self._slots, dtype=np.float32)
        for post in posts:
            np.add.at(acc, post.slots, post.approx())  # a term's slots are distinct: one add each
        tol = 2.0 * (len(posts) + 1) * 2.0**-24 * sum(post.top for post in posts)
        margin = 2.0 * tol + 4e-9
        sample = acc[::SAMPLE_STRIDE]
        bound = float(np.partition(sample, len(sample) - k)[len(sample) - k]) if len(sample) > k else 0.0
        cand = np.flatnonzero(acc >= bound - margin) if bound > 0.0 else np.flatnonzero(acc)
        if len(cand) > k:
            sums = acc[cand]
            kth = float(np.partition(sums, len(sums) - k)[len(sums) - k])
            cand = cand[sums >= kth - margin]
        return cand.astype(np.int32) if len(cand) <= EXACT_LIMIT else None

    @staticmethod
    def _exact(matched: list[tuple[str, _Postings]], cand: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """The float64 BM25 sums of ``cand``, added term by term in query order (as a full sum
        does), and per term whether it holds each of ``cand``."""
        total = np.zeros(len(cand), dtype=np.float64)
        held = []
        for _, post in matched:
            has, pos = post.lookup(cand)
            total += np.where(has, post.scores[pos], 0.0)
            held.append(has)
        return total, held

    def _postings(self, tid: int) -> _Postings:
        post = self._cache.get(tid)
        if post is None:
            slots = np.frombuffer(self._post_slots[tid], dtype=np.int32)
            tfs = np.frombuffer(self._post_tfs[tid], dtype=np.int32)
            if self._slots != len(self._id_slot):  # dead slots exist: keep the live postings
                keep = self._alive[slots]
                slots, tfs = slots[keep], tfs[keep]
            else:  # a copy: the growable arrays may be appended to (and moved) later
                slots, tfs = slots.copy(), tfs.copy()
            post = self._cache[tid] = _Postings(slots, tfs)
        return post

    @staticmethod
    def _above_threshold(scores: np.ndarray, k: int) -> np.ndarray:
        """Slots whose score may be in the top ``k``: at or above the sample's k-th best."""
        sample = scores[::SAMPLE_STRIDE]
        if np.count_nonzero(sample) < k:
            return np.flatnonzero(scores)
        bound = np.partition(sample, len(sample) - k)[len(sample) - k]
        return np.flatnonzero(scores >= bound - 1e-9)  # and ties up to rounding (see search)

    # ----- files ---------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Write atomically (compacting first); the previous file survives a crash."""
        self._compact()
        n = self._slots
        lengths = np.fromiter((len(p) for p in self._post_slots), dtype=np.int64, count=len(self._terms))
        ptr = np.zeros(len(self._terms) + 1, dtype=np.int64)
        np.cumsum(lengths, out=ptr[1:])
        post_slots = np.frombuffer(b"".join(p.tobytes() for p in self._post_slots), dtype=np.intc)
        post_tfs = np.frombuffer(b"".join(p.tobytes() for p in self._post_tfs), dtype=np.intc)
        vocab = np.frombuffer("\n".join(self._terms).encode("utf-8"), dtype=np.uint8)
        buf = io.BytesIO()
        np.savez_compressed(
            buf,
            version=np.array([FORMAT_VERSION], dtype=np.int64),
            ids=self._slot_id[:n],
            lens=self._slot_len[:n],
            vocab=vocab,
            ptr=ptr,
            slots=post_slots.astype(np.int32),
            tfs=post_tfs.astype(np.int32),
        )
        atomic_write_bytes(Path(path), buf.getvalue())
        self.dirty = self.outdated = False

    @classmethod
    def load(cls, path: Path) -> LexicalIndex:
        """Read ``path``; a missing file gives an empty index, a bad one raises CorruptFile."""
        path = Path(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return cls()
        except OSError as err:
            raise CorruptFile(f"cannot read lexical index {path}: {err.strerror}") from err
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                arrays = {
                    name: npz[name] for name in ("version", "ids", "lens", "vocab", "ptr", "slots", "tfs")
                }
        except (ValueError, OSError, KeyError, EOFError, zipfile.BadZipFile) as err:
            raise CorruptFile(f"lexical index {path} is unreadable: {err}") from err
        index = cls()
        version = arrays["version"].tolist()
        if isinstance(version, list) and len(version) == 1 and 0 < int(version[0]) < FORMAT_VERSION:
            index.outdated = True  # an older tokenizer's terms: the store rebuilds it from its turns
            return index
        try:
            index._restore(arrays)
        except (ValueError, UnicodeDecodeError) as err:
            raise CorruptFile(f"lexical index {path} is inconsistent: {err}") from err
        return index

    def _restore(self, a: dict[str, np.ndarray]) -> None:
        if a["version"].tolist() != [FORMAT_VERSION]:
            raise ValueError(f"unknown format version {a['version'].tolist()}")
        ids = a["ids"].astype(np.int64)
        lens = a["lens"].astype(np.int32)
        ptr = a["ptr"].astype(np.int64)
        slots = a["slots"].astype(np.int32)
        tfs = a["tfs"].astype(np.int32)
        vocab_bytes = a["vocab"].astype(np.uint8).tobytes()
        terms = vocab_bytes.decode("utf-8").split("\n") if vocab_bytes else []
        n = len(ids)
        if len(lens) != n or len(np.unique(ids)) != n or (n and lens.min() < 0):
            raise ValueError("ids and lengths disagree")
        if len(ptr) != len(terms) + 1 or ptr[0] != 0 or ptr[-1] != len(slots) or len(tfs) != len(slots):
            raise ValueError("postings do not match the vocabulary")
        if np.any(np.diff(ptr) < 0) or (len(slots) and (slots.min() < 0 or slots.max() >= n)):
            raise ValueError("postings point outside the documents")
        if len(set(terms)) != len(terms):
            raise ValueError("vocabulary repeats a term")
        self._terms = terms
        self._vocab = {term: i for i, term in enumerate(terms)}
        self._post_slots = [array("i", slots[ptr[i] : ptr[i + 1]].tobytes()) for i in range(len(terms))]
        self._post_tfs = [array("i", tfs[ptr[i] : ptr[i + 1]].tobytes()) for i in range(len(terms))]
        self._slot_id, self._slot_len = ids, lens
        self._alive = np.ones(n, dtype=bool)
        self._slots = n
        self._id_slot = {doc_id: slot for slot, doc_id in enumerate(ids.tolist())}
        self._total_len = int(lens.sum())
        self._cache = {}
        self.dirty = False

    # ----- internals -------------------------------------------------------------------

    def _new_slot(self, doc_id: int, length: int) -> int:
        slot = self._slots
        if slot >= len(self._slot_id):
            cap = max(64, slot + slot // 2)
            self._slot_id = np.resize(self._slot_id, cap)
            self._slot_len = np.resize(self._slot_len, cap)
            self._alive = np.resize(self._alive, cap)
        self._slot_id[slot] = doc_id
        self._slot_len[slot] = length
        self._alive[slot] = True
        self._slots = slot + 1
        self._id_slot[doc_id] = slot
        self._total_len += length
        return slot

    def _kill(self, doc_id: int) -> bool:
        slot = self._id_slot.pop(doc_id, None)
        if slot is None:
            return False
        self._alive[slot] = False
        self._total_len -= int(self._slot_len[slot])
        self._cache.clear()  # the dead slot may sit in any cached term
        return True

    def _maybe_compact(self) -> None:
        dead = self._slots - len(self._id_slot)
        if dead > max(1024, len(self._id_slot)):
            self._compact()

    def _compact(self) -> None:
        """Drop dead slots from the postings and renumber the live ones; drop unused terms."""
        n = self._slots
        if n == len(self._id_slot):
            return
        alive = self._alive[:n]
        remap = np.cumsum(alive, dtype=np.int64) - 1
        terms: list[str] = []
        post_slots: list[array] = []
        post_tfs: list[array] = []
        for term, ps, pt in zip(self._terms, self._post_slots, self._post_tfs):
            s = np.array(ps, dtype=np.int64)
            keep = alive[s]
            if not keep.any():
                continue
            terms.append(term)
            post_slots.append(array("i", remap[s[keep]].astype(np.intc).tobytes()))
            post_tfs.append(array("i", np.array(pt, dtype=np.intc)[keep].tobytes()))
        self._terms, self._post_slots, self._post_tfs = terms, post_slots, post_tfs
        self._vocab = {term: i for i, term in enumerate(terms)}
        self._slot_id = self._slot_id[:n][alive].copy()
        self._slot_len = self._slot_len[:n][alive].copy()
        self._slots = len(self._slot_id)
        self._alive = np.ones(self._slots, dtype=bool)
        self._id_slot = {doc_id: slot for slot, doc_id in enumerate(self._slot_id.tolist())}
        self._cache.clear()
