"""The memory facade: turns, indexes, embedding cache and preference ledger in one home folder.

Layout under ``home`` (all 0600/0700)::

    lock                      writer lock (one writable Memory at a time)
    turns/seg-*.json          TinyDB segments: the source of truth
    index/vectors-<model>.usearch, index/lexical.bin, index/state.json
    cache/                    embeddings by (model id, text hash) not held by the index
    ledger/                   preference events

The indexes are derived data. They are loaded on first use, and when the store
changed behind their back (a crash, another embedder) they are reconciled with
it: turns missing from an index are added (vectors from the cache, embedding
only what the cache lacks) and turns no longer in the store are removed.

Each vector is on disk once: the vector index tags its vectors with the texts' cache
keys, the cache looks indexed texts up there, and once an index save is durable the
cache drops what the index holds (:meth:`EmbeddingCache.compact`). A cache folder given
from outside (``cache_dir``, shared by benchmark stores) is never compacted.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory.atomic import atomic_write_text, clean_temporaries
from memory.integrity import read_state as _read_state
from memory.integrity import state_matches as _state_matches
from memory.lock import WriterLock
from memory.paths import ensure_private_dir
from memory.paths import home as default_home
from memory.preflight import check_home
from memory.store import TurnStore
from memory.types import Hit, Turn

if TYPE_CHECKING:
    import numpy as np

    from memory.embedcache import EmbeddingCache
    from memory.embedders.base import Embedder
    from memory.forget import Hook as ForgetHook
    from memory.ledger import PreferenceLedger
    from memory.lexical import LexicalIndex
    from memory.plans import PlanStore
    from memory.public import PublicVectors
    from memory.vector import VectorIndex

NEVER_USE = "never_use"
QUERY_MEMO = 4096  # query vectors kept in RAM
FORGET_UNDO = "forget-undo.json"  # what the last `memory forget` removed, for a short window
SAVE_EVERY = 1000
# Reciprocal rank fusion constant. The usual 60 flattens ranks over 30-deep lists so that a
# weak list drags a strong one down; on LoCoMo (MiniLM, 3 conversations, 495 questions)
# recall@10 was 0.62 with 60 and 0.65 with 10, against 0.59 for BM25 alone.
RRF_C = 10  # index saves are amortised; a crash in between is repaired by reconcile
Progress = Callable[[str, int, int], None]  # (stage, done, total)


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


class Memory:
    def __init__(
        self,
        home: Path,
        *,
        embedder: Embedder | str | None = None,
        readonly: bool = False,
        cache_dir: Path | None = None,
        fsync: bool = True,
        repair: bool = False,
        forget_hooks: Sequence[ForgetHook] = (),
    ) -> None:
        self.home = Path(home)
        self.readonly = readonly
        self._lock = WriterLock(self.home / "lock")
        check_home(self.home, write=not readonly)  # one line and no change, before any write
        if not readonly:
            ensure_private_dir(self.home)
            self._lock.acquire()
            clean_temporaries(self.home)  # a killed writer's half-written files
            drop_expired_undo(self.home)
        try:
            self.store = TurnStore(self.home / "turns", readonly=readonly, fsync=fsync, repair=repair)
        except BaseException:
            self._lock.release()  # a damaged store refuses a writer: let the next one (repair) in
            raise
        self._embedder_spec = embedder
        self._embedder: Embedder | None = embedder if not isinstance(embedder, (str, type(None))) else None
        self._cache_dir = Path(cache_dir) if cache_dir else self.home / "cache"
        self._own_cache = not cache_dir  # only the home's own cache gives its vectors to the index
        self._cache: EmbeddingCache | None = None
        self._public: PublicVectors | None = None
        self._vectors: VectorIndex | None = None
        self._donor: VectorIndex | None = None  # the old index file's vectors during a rebuild
        self._lexical: LexicalIndex | None = None
        self._ledger: PreferenceLedger | None = None
        self._unsaved = 0
        self._query_vectors: dict[str, np.ndarray] = {}  # RAM only, see embed_queries
        self.fsync = fsync
        self.last_reconcile: dict[str, int] = {}
        self.index_damage: list[str] = []  # what the last index load found wrong (and rebuilt)
        self.forget_hooks = tuple(forget_hooks)
        # what opening found a kill had left: an import's stage rolled back, a forget finished
        self.rolled_back = self.store.rolled_back
        self.resumed_forget = 0
        if not readonly:
            from memory.forget import resume

            try:
                self.resumed_forget = resume(self, self.forget_hooks)
            except BaseException:
                self.close()
                raise

    @classmethod
    def open(
        cls,
        home: Path | None = None,
        *,
        embedder: Embedder | str | None = None,
        readonly: bool = False,
        cache_dir: Path | None = None,
        fsync: bool = True,
        repair: bool = False,
        forget_hooks: Sequence[ForgetHook] = (),
    ) -> Memory:
        return cls(
            Path(home) if home else default_home(),
            embedder=embedder,
            readonly=readonly,
            cache_dir=cache_dir,
            fsync=fsync,
            repair=repair,
            forget_hooks=forget_hooks,
        )

    # ------------------------------------------------------------ components
    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            from memory.embedders.registry import load_embedder

            self._embedder = load_embedder(
                self._embedder_spec if isinstance(self._embedder_spec, str) else None
            )
        return self._embedder

    @property
    def cache(self) -> EmbeddingCache:
        if self._cache is None:
            from memory.embedcache import EmbeddingCache
            from memory.indexed import IndexedVectors

            if not self.readonly:
                ensure_private_dir(self._cache_dir)
            self._cache = EmbeddingCache(
                self._cache_dir,
                self.embedder.model_id,
                self.embedder.ndim,
                backing=IndexedVectors(self),
                readonly=self.readonly,
            )
        return self._cache

    @property
    def public(self) -> PublicVectors:
        """Vectors of the product's own texts (tool and parameter descriptions, values), kept on disk."""
        if self._public is None:
            from memory.public import PublicVectors

            self._public = PublicVectors(self._cache_dir, self.embedder, readonly=self.readonly)
        return self._public

    def embed_public(self, texts: list[str]) -> np.ndarray:
        """Vectors of public texts (never the user's words): embedded once per home and model, kept."""
        return self.public.embed(texts)

    @property
    def ledger(self) -> PreferenceLedger:
        if self._ledger is None:
            from memory.ledger import PreferenceLedger

            folder = self.home / "ledger"
            if not self.readonly:
                ensure_private_dir(folder)
            self._ledger = PreferenceLedger(
                folder, readonly=self.readonly, fsync=self.fsync, hidden=self.store.hidden
            )
        return self._ledger

    @property
    def plans(self) -> PlanStore:
        from memory.plans import PlanStore

        return PlanStore(self.home / "plans", readonly=self.readonly)

    def _index_paths(self) -> tuple[Path, Path, Path]:
        folder = self.home / "index"
        return (
            folder / f"vectors-{_safe(self.embedder.model_id)}.usearch",
            folder / "lexical.bin",
            folder / "state.json",
        )

    def _indexes(self, progress: Progress | None = None) -> tuple[VectorIndex, LexicalIndex]:
        if self._vectors is None or self._lexical is None:
            self._load_indexes(progress)
        assert self._vectors is not None and self._lexical is not None
        return self._vectors, self._lexical

    def _load_indexes(self, progress: Progress | None = None, *, rebuild: bool = False) -> None:
        from memory.errors import CorruptFile
        from memory.indexed import read_donor
        from memory.lexical import LexicalIndex
        from memory.vector import VectorIndex

        vec_path, lex_path, state_path = self._index_paths()
        ndim = self.embedder.ndim
        state = _read_state(state_path)
        self.index_damage = self.index_problems(state)  # checked before a file is trusted
        damaged = {p.split(" ", 1)[0] for p in self.index_damage}
        vectors = lexical = None
        if not rebuild:
            try:
                vectors = None if vec_path.name in damaged else VectorIndex.load(vec_path, ndim)
            except CorruptFile as exc:
                self.index_damage.append(str(exc))
            try:
                lexical = None if lex_path.name in damaged else LexicalIndex.load(lex_path)
            except CorruptFile as exc:
                self.index_damage.append(str(exc))
        # derived data: what is missing or damaged is rebuilt from the store by the reconcile
        self._vectors = vectors if vectors is not None else VectorIndex(ndim)
        self._lexical = lexical if lexical is not None else LexicalIndex()
        current = (
            state.get("token") == self.store.state_token()
            and state.get("model") == self.embedder.model_id
            and not self.index_damage
            and not self._lexical.outdated  # an older tokenizer's file: re-index the texts
            and not self._vectors.untagged_ids()  # a file from before tags: tag it from the store
        )
        if current and not rebuild:
            self.last_reconcile = {}
            return
        if vectors is None:  # the file's vectors are not used: still a source of vectors by text
            self._donor = read_donor(vec_path, ndim)
        try:
            self.last_reconcile = self._reconcile_loaded(progress)
        finally:
            self._donor = None

    def indexes_current(self) -> bool:
        """Whether the saved indexes were saved with the store as it is (cheap: no file is read
        but ``index/state.json``); when not, the first search reconciles them."""
        _, _, state_path = self._index_paths()
        return _state_matches(state_path, self.store.state_token(), self.embedder.model_id)

    def index_problems(self, state: dict[str, Any] | None = None) -> list[str]:
        """Index files that differ from the sizes and checksums saved in ``index/state.json``."""
        from memory.integrity import recorded_index_damage

        _, _, state_path = self._index_paths()
        state = _read_state(state_path) if state is None else state
        return recorded_index_damage(state_path.parent, state, self.store.state_token())

    def reconcile(self, progress: Progress | None = None) -> dict[str, int]:
        """Make both indexes hold exactly the usable turns of the store; returns what changed."""
        if self._vectors is None or self._lexical is None:
            self._load_indexes(progress, rebuild=False)
            return self.last_reconcile
        return self._reconcile_loaded(progress)

    def prepare(self, progress: Progress | None = None) -> None:
        """Load (and if needed reconcile) the indexes now, e.g. in a worker before the first search.

        An exception raised from ``progress`` (a cancelled load) abandons the half-built indexes:
        nothing partial is ever saved as if it were complete.
        """
        self._indexes(progress)

    def _reconcile_loaded(self, progress: Progress | None = None) -> dict[str, int]:
        try:
            return self._reconcile_steps(progress)
        except BaseException:
            self._vectors = self._lexical = None  # half-reconciled: never saved as current
            raise

    def _reconcile_steps(self, progress: Progress | None = None) -> dict[str, int]:
        vectors, lexical = self._vectors, self._lexical
        assert vectors is not None and lexical is not None
        from memory.embedcache import text_key

        usable: dict[int, str] = {}
        never: dict[int, str] = {}
        for turn_id, rec in self.store.iter_records():
            if NEVER_USE not in rec.get("flags", ()):
                usable[turn_id] = rec["text"]
            else:
                never[turn_id] = rec["text"]
        if never and not self.readonly and never.keys() - self.ledger.muted_turns:
            self.ledger.mute_turns(set(never))  # flagged before the ledger learnt to mute
        untagged = [i for i in vectors.untagged_ids() if i in usable]
        if untagged:
            vectors.set_tags(untagged, [text_key(usable[i]) for i in untagged])
        report = {"added_vectors": 0, "removed_vectors": 0, "added_lexical": 0, "removed_lexical": 0}
        have_vec = {int(i) for i in vectors.ids()}
        have_lex = {int(i) for i in lexical.ids()}
        extra_vec = have_vec - usable.keys()
        extra_lex = have_lex - usable.keys()
        if extra_vec:
            self._keep_vectors_of([i for i in extra_vec if i in never], never)
            report["removed_vectors"] = vectors.remove(extra_vec)
        if extra_lex:
            report["removed_lexical"] = lexical.remove(extra_lex)
        missing_vec = sorted(usable.keys() - have_vec)
        missing_lex = sorted(usable.keys() - have_lex)
        step = 256
        for start in range(0, len(missing_vec), step):
            ids = missing_vec[start : start + step]
            texts = [usable[i] for i in ids]
            vectors.add(ids, self.cache.embed_with(self.embedder, texts), [text_key(t) for t in texts])
            if progress:
                progress("embedding", min(start + step, len(missing_vec)), len(missing_vec))
        report["added_vectors"] = len(missing_vec)
        if missing_lex:
            lexical.add(missing_lex, [usable[i] for i in missing_lex])
            report["added_lexical"] = len(missing_lex)
        if not self.readonly and (any(report.values()) or vectors.dirty or lexical.dirty):
            self.save_indexes()
        elif not self.readonly:
            self._write_state()
        return report

    def _write_state(self, *, saving: bool = False) -> None:
        """Record what the indexes were saved with: the store's token and each file's size and crc32.

        ``saving`` marks a save in progress (no token, no files): a kill before the save ends
        makes the next open reconcile, rather than take a newer file for a damaged one.
        """
        from memory.integrity import file_digest

        vec_path, lex_path, state_path = self._index_paths()
        ensure_private_dir(state_path.parent)
        files = {p.name: d for p in (vec_path, lex_path) if not saving and (d := file_digest(p)) is not None}
        state = {
            "token": None if saving else self.store.state_token(),
            "model": self.embedder.model_id,
            "saved": time.time(),
            "files": files,
        }
        atomic_write_text(state_path, json.dumps(state), fsync=self.fsync)

    def save_indexes(self) -> None:
        if self.readonly or self._vectors is None or self._lexical is None:
            return
        vec_path, lex_path, _ = self._index_paths()
        ensure_private_dir(vec_path.parent)
        self._write_state(saving=True)
        self._vectors.save(vec_path)
        self._lexical.save(lex_path)
        self._write_state()
        self._unsaved = 0
        if self._own_cache and self._cache is not None:  # the index file now holds these vectors
            self._cache.compact(self._vectors.has_tag)

    def _keep_vectors_of(self, ids: Sequence[int], texts: dict[int, str]) -> None:
        """Put these indexed turns' vectors in the cache before the index lets them go."""
        vectors = self._vectors
        held = [i for i in ids if vectors is not None and i in vectors]
        if held and not self.readonly and vectors is not None:
            self.cache.put_many([texts[i] for i in held], vectors.get_vectors(held))

    # ------------------------------------------------------------ writes
    def add_turn(
        self,
        session_id: str,
        role: str,
        text: str,
        *,
        time: datetime | None = None,
        source: str = "chat",
        tool_call: dict[str, Any] | None = None,
    ) -> Turn:
        rec: dict[str, Any] = {"session_id": session_id, "role": role, "text": text, "source": source}
        if time is not None:
            rec["time"] = time
        if tool_call is not None:
            rec["tool_call"] = tool_call
        return self.add_turns([rec])[0]

    def add_turns(self, records: Iterable[dict[str, Any]], *, index: bool = True) -> list[Turn]:
        """Store turns durably first, then embed (through the cache) and index them."""
        recs = []
        for rec in records:
            rec = dict(rec)
            if isinstance(rec.get("time"), datetime):
                rec["time"] = rec["time"].isoformat()
            recs.append(rec)
        if index and recs:
            # the indexes are loaded before the store changes: saved with the store as it is
            # now, they are current and load as they are (after the write they would not match
            # the store and a 10k-turn home would be reconciled whole for every turn added)
            self._indexes()
        turns = self.store.add(recs)
        if index and turns:
            self._index_turns(turns)
        return turns

    def import_turns(self, records: Iterable[dict[str, Any]]) -> dict[str, Any]:
        """Add many turns as one transaction, skipping those already held (:mod:`memory.importer`)."""
        from memory.importer import import_turns

        return import_turns(self, records)

    def _index_turns(self, turns: Sequence[Turn]) -> None:
        from memory.embedcache import text_key

        vectors, lexical = self._indexes()
        ids = [t.id for t in turns]
        texts = [t.text for t in turns]
        vectors.add(ids, self.cache.embed_with(self.embedder, texts), [text_key(t) for t in texts])
        lexical.add(ids, texts)
        self._unsaved += len(turns)
        if self._unsaved >= SAVE_EVERY:
            self.save_indexes()

    def restore_turns(self, records: Iterable[dict[str, Any]]) -> list[Turn]:
        """Put forgotten turns back with their original ids (see ``TurnStore.restore``), indexed."""
        recs = []
        for rec in records:
            rec = dict(rec)
            if isinstance(rec.get("time"), datetime):
                rec["time"] = rec["time"].isoformat()
            recs.append(rec)
        if recs:
            self._indexes()  # before the store changes (see add_turns)
        turns = self.store.restore(recs)
        if turns:
            self._index_turns(turns)
        return turns

    def forget(self, ids: Iterable[int]) -> list[Turn]:
        """Remove turns from everything derived from them, as one transaction (:mod:`memory.forget`):
        store, indexes, embedding cache, ledger (rewritten without their words), saved plans
        (theirs, and others' quoting them) and what ``forget_hooks`` scrub.
        """
        from memory.forget import forget

        return forget(self, ids, self.forget_hooks)

    def set_never_use(self, turn_id: int, never: bool = True) -> Turn:
        """A turn marked "never use" stays visible in `memory show` but is never retrieved."""
        turn = self.get(turn_id)
        flags = set(turn.flags) | {NEVER_USE} if never else set(turn.flags) - {NEVER_USE}
        turn = self.store.set_flags(turn_id, flags)
        self.ledger.mute_turns([turn_id], never)
        from memory.embedcache import text_key

        vectors, lexical = self._indexes()
        if never:
            self._keep_vectors_of([turn_id], {turn_id: turn.text})  # un-marking must not re-embed
            vectors.remove([turn_id])
            lexical.remove([turn_id])
        else:
            vectors.add([turn_id], self.cache.embed_with(self.embedder, [turn.text]), [text_key(turn.text)])
            lexical.add([turn_id], [turn.text])
        self.save_indexes()
        return turn

    # ------------------------------------------------------------ reads
    def get(self, turn_id: int) -> Turn:
        return self.store.get(turn_id)

    def get_many(self, ids: Iterable[int]) -> list[Turn]:
        return self.store.get_many(ids)

    def __len__(self) -> int:
        return len(self.store)

    def is_empty(self) -> bool:
        """``len(self) == 0``, without counting every segment's turns."""
        return self.store.is_empty()

    def iter_turns(self, **filters: Any) -> Iterator[Turn]:
        return self.store.iter_turns(**filters)

    def session(self, session_id: str) -> list[Turn]:
        return list(self.store.iter_turns(newest_first=False, session=session_id))

    def context(self, turn_id: int, before: int = 1, after: int = 1, *, window: int = 64) -> list[Turn]:
        """Neighbouring turns of the same session (ids near this one), in time order."""
        turn = self.get(turn_id)
        near = self.store.get_many(range(max(1, turn_id - window), turn_id + window + 1))
        same = sorted((t for t in near if t.session_id == turn.session_id), key=lambda t: (t.time, t.id))
        pos = next(i for i, t in enumerate(same) if t.id == turn_id)
        return same[max(0, pos - before) : pos] + same[pos + 1 : pos + 1 + after]

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Query vectors: read from the cache, but a query's own vector is kept in RAM only.

        Queries are what the user is asking now (an incognito message, a turn about to be
        forgotten); writing their vectors to disk would keep a trace of them. Texts declared
        public (the product's own words) are the exception: they go to ``self.public``.
        """
        import numpy as np

        out = np.empty((len(texts), self.embedder.ndim), dtype=np.float32)
        known = self.cache.get_many(texts)
        gaps = [i for i, v in enumerate(known) if v is None]
        if gaps:
            # the product's own texts (a tool's description, an enum value) live in the public cache:
            # read there, or embedded into it once when declared public (``PublicVectors.declare``)
            public = self.public
            for i, vec in zip(gaps, public.get_many([texts[i] for i in gaps])):
                known[i] = vec
            new = list(
                dict.fromkeys(texts[i] for i in gaps if known[i] is None and public.is_public(texts[i]))
            )
            if new:
                got = dict(zip(new, public.embed(new)))
                for i in gaps:
                    if known[i] is None:
                        known[i] = got.get(texts[i])
        missing = list(
            dict.fromkeys(t for t, v in zip(texts, known) if v is None and t not in self._query_vectors)
        )
        if missing:
            fresh = np.asarray(self.embedder.embed_batch(missing), dtype=np.float32)
            if len(self._query_vectors) + len(missing) > QUERY_MEMO:
                self._query_vectors.clear()
            self._query_vectors.update(zip(missing, fresh))
            extra = dict(zip(missing, fresh))
        else:
            extra = {}
        for i, (text, vec) in enumerate(zip(texts, known)):
            out[i] = vec if vec is not None else self._query_vectors.get(text, extra.get(text))
        return out

    def hold_as_saved(self) -> None:
        """Round the loaded vectors to their saved precision (``VectorIndex.round_to_storage``)."""
        if self._vectors is not None:
            self._vectors.round_to_storage()

    def vectors(self, ids: Sequence[int]) -> np.ndarray:
        vectors, _ = self._indexes()
        return vectors.get_vectors(list(ids))

    def term_weights(self, query: str) -> dict[str, float]:
        """The BM25 weight (idf) of each word of ``query`` in this store (``LexicalIndex.term_weights``)."""
        _, lexical = self._indexes()
        return lexical.term_weights(query)

    def search_vector(self, vector: np.ndarray, k: int = 10) -> list[Hit]:
        vectors, _ = self._indexes()
        return vectors.search(vector, k)

    def search(
        self, query: str, k: int = 10, *, mode: str = "hybrid", vector: np.ndarray | None = None
    ) -> list[Hit]:
        """Hybrid (dense + BM25, reciprocal rank fusion), dense or lexical search over usable turns."""
        from memory.hybrid import rrf_fuse

        if mode not in ("hybrid", "dense", "lexical"):
            raise ValueError(f"unknown search mode {mode!r}")
        vectors, lexical = self._indexes()
        depth = max(k * 3, 30) if mode == "hybrid" else k
        lists: list[tuple[str, list[Hit]]] = []
        if mode in ("hybrid", "dense"):
            qv = vector if vector is not None else self.embed_queries([query])[0]
            lists.append(("dense", vectors.search(qv, depth)))
        if mode in ("hybrid", "lexical"):
            lists.append(("lexical", lexical.search(query, depth)))
        if mode != "hybrid":
            return lists[0][1][:k]
        return rrf_fuse(lists, k=k, c=RRF_C)

    def search_many(self, requests: Sequence[tuple[str, int, str, np.ndarray | None]]) -> list[list[Hit]]:
        """``search`` for each (query, k, mode, vector): the same hits, with the dense parts of all of
        them scored in one pass over the vectors (exact search reads the whole matrix once per pass)."""
        import numpy as np

        from memory.hybrid import rrf_fuse

        for _, _, mode, _ in requests:
            if mode not in ("hybrid", "dense", "lexical"):
                raise ValueError(f"unknown search mode {mode!r}")
        vectors, lexical = self._indexes()
        dense_at = [i for i, r in enumerate(requests) if r[2] != "lexical"]
        missing = [i for i in dense_at if requests[i][3] is None]
        embedded = (
            dict(zip(missing, self.embed_queries([requests[i][0] for i in missing]))) if missing else {}
        )
        dense: dict[int, list[Hit]] = {}
        if dense_at:
            queries = np.stack(
                [np.asarray(embedded.get(i, requests[i][3]), dtype=np.float32) for i in dense_at]
            )
            depths = [
                max(requests[i][1] * 3, 30) if requests[i][2] == "hybrid" else requests[i][1]
                for i in dense_at
            ]
            dense = dict(zip(dense_at, vectors.search_many(queries, depths)))
        out: list[list[Hit]] = []
        for i, (query, k, mode, _) in enumerate(requests):
            if mode == "dense":
                out.append(dense[i][:k])
            elif mode == "lexical":
                out.append(lexical.search(query, k)[:k])
            else:
                depth = max(k * 3, 30)
                out.append(
                    rrf_fuse([("dense", dense[i]), ("lexical", lexical.search(query, depth))], k=k, c=RRF_C)
                )
        return out

    def stats(self) -> dict[str, Any]:
        store_damage = [d["problem"] for d in self.store.check()]
        roles: dict[str, int] = {}
        sources: dict[str, int] = {}
        sessions: set[str] = set()
        never = 0
        for _, rec in self.store.iter_records():
            roles[rec["role"]] = roles.get(rec["role"], 0) + 1
            src = rec.get("source", "chat")
            sources[src] = sources.get(src, 0) + 1
            sessions.add(rec["session_id"])
            never += NEVER_USE in rec.get("flags", ())

        def folder_bytes(p: Path) -> int:
            return sum(f.stat().st_size for f in p.rglob("*") if f.is_file()) if p.is_dir() else 0

        vec_path, lex_path, state_path = self._index_paths()
        index_damage = self.index_problems()
        return {
            "home": str(self.home),
            "turns": sum(roles.values()),
            "sessions": len(sessions),
            "by_role": roles,
            "by_source": sources,
            "never_use": never,
            "embedder": self.embedder.model_id,
            "ndim": self.embedder.ndim,
            "bytes": {
                "turns": self.store.disk_bytes(),
                "index": folder_bytes(self.home / "index"),
                "cache": folder_bytes(self._cache_dir),
                "ledger": folder_bytes(self.home / "ledger"),
            },
            "index": {
                "vectors_file": vec_path.exists(),
                "lexical_file": lex_path.exists(),
                "in_sync": _state_matches(state_path, self.store.state_token(), self.embedder.model_id)
                and not index_damage,
                "damage": index_damage,
            },
            "damage": store_damage + index_damage,
        }

    def repair(self, progress: Progress | None = None) -> list[str]:
        """Salvage damaged segments, note missing ones, rebuild damaged indexes; what was done."""
        from memory.repair import repair_store

        lines = repair_store(self.store)
        self._vectors = self._lexical = None
        self._load_indexes(progress)
        lines += [f"index {p}; rebuilt from the turn store" for p in self.index_damage]
        return lines

    def reindex(self, progress: Progress | None = None) -> dict[str, int]:
        """Rebuild both indexes from the store (e.g. after switching embedder)."""
        self._vectors = self._lexical = None
        self._load_indexes(progress, rebuild=True)
        return {"vectors": len(self._vectors or []), "lexical": len(self._lexical or [])}

    def close(self) -> None:
        if not self.readonly:
            if self._vectors is not None and (self._unsaved or self._vectors.dirty):
                self.save_indexes()
            self.store.close()
        if self._ledger is not None and hasattr(self._ledger, "close"):
            self._ledger.close()
        self._lock.release()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def drop_expired_undo(home: Path, now: float | None = None) -> bool:
    """Remove the forget-undo file once its window is over (or when it cannot be read)."""
    path = Path(home) / FORGET_UNDO
    try:
        expires = float(json.loads(path.read_text("utf-8")).get("expires", 0))
    except FileNotFoundError:
        return False
    except (OSError, ValueError, TypeError, AttributeError, UnicodeDecodeError):
        expires = 0.0
    if expires >= (time.time() if now is None else now):
        return False
    path.unlink(missing_ok=True)
    return True
