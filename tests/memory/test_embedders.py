"""Embedders, offline: the real MiniLM default, BGE-M3's code path on a tiny checkpoint, Ollama over HTTP."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memory.embedders.flag import (
    BGEM3Embedder,
    FlagSentenceEmbedder,
    minilm_embedder,
    minilm_folder,
    minilm_torch_embedder,
)
from memory.embedders.hashing import HashEmbedder
from memory.embedders.numpy_bert import NumpyBertEmbedder
from memory.embedders.ollama_embed import OllamaEmbedder
from memory.embedders.registry import describe_embedder, load_embedder
from memory.errors import EmbedderUnavailable

REPO = Path(__file__).resolve().parents[2]


def _unit_rows(vecs: np.ndarray) -> bool:
    return bool(np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5))


# ---------------------------------------------------------------- MiniLM, the offline default


@pytest.fixture(scope="module")
def minilm() -> NumpyBertEmbedder:
    emb = minilm_embedder()
    emb.load()
    return emb


@pytest.fixture(scope="module")
def minilm_torch() -> FlagSentenceEmbedder:
    emb = minilm_torch_embedder()
    emb.load()
    return emb


# varied probes: empty, blank, one letter, long (truncated at 256 tokens), accents, CJK, emoji,
# digits and symbols, capitals (the model is uncased), a URL, code, mixed lengths in one batch
PROBES = [
    "",
    "   ",
    "a",
    "I like short answers.",
    "Book a table for two on Friday at 7pm",
    "gardening",
    "Ünïcödé café naïve résumé",
    "東京で寿司を食べたい",
    "🍕🍕 pizza night 🎉",
    "numbers 1234567 3.14159 ### $$$ 50% off",
    "ALL CAPS SHOUTING ABOUT THE TRAIN!!!",
    "see https://example.org/path?q=1&x=2 for details",
    "def f(x): return [i * 2 for i in range(x)]",
    "The dentist pulled a tooth; soft food only this week. " * 40,
    "x" * 5000,
    "remind me to call my mum on Sunday and water the plants",
    "I'm vegetarian, no fish either, and I avoid anything too spicy.",
    "\t\nnew\tlines\n\nand tabs",
]


def test_numpy_minilm_gives_the_torch_vectors(minilm, minilm_torch):
    """The numpy path must give FlagEmbedding's vectors: the stored index was built with them."""
    assert minilm.model_id == minilm_torch.model_id == "minilm-l6-v2"
    ours = minilm.embed_batch(PROBES)
    ref = minilm_torch.embed_batch(PROBES)
    cosines = np.sum(ours * ref, axis=1)
    assert float(cosines.min()) >= 0.9999, dict(zip(PROBES, cosines.round(6).tolist()))
    np.testing.assert_allclose(ours, ref, atol=1e-5)
    # one at a time (no padding) gives the same rows as the padded batch
    single = np.stack([minilm.embed(t) for t in PROBES[:6]])
    np.testing.assert_allclose(single, ours[:6], atol=1e-5)
    # and it is a real model, not a constant: different texts give different vectors
    assert float(ours[4] @ ours[5]) < 0.9


def test_numpy_minilm_embeds_without_torch():
    code = (
        "import sys\n"
        "from memory.embedders.registry import load_embedder\n"
        "v = load_embedder('minilm').embed_batch(['tea or coffee', 'a longer sentence about trains'])\n"
        "print(v.shape, sorted(m for m in ('torch', 'transformers', 'FlagEmbedding') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "(2, 384) []"


def test_numpy_minilm_bad_folder_is_one_line(tmp_path):
    folder = tmp_path / "m"
    shutil.copytree(minilm_folder(), folder, ignore=shutil.ignore_patterns("model.safetensors"))
    with pytest.raises(EmbedderUnavailable, match="no model.safetensors"):
        NumpyBertEmbedder(folder, model_id="m").embed("tea")
    (folder / "model.safetensors").write_bytes(b"not a safetensors file")
    with pytest.raises(EmbedderUnavailable, match="cannot load embedding model from"):
        NumpyBertEmbedder(folder, model_id="m").embed("tea")
    (folder / "tokenizer.json").write_text("{broken")
    with pytest.raises(EmbedderUnavailable, match="cannot read .*tokenizer.json"):
        NumpyBertEmbedder(folder, model_id="m").embed("tea")


def test_minilm_vectors_are_384d_unit_and_deterministic(minilm):
    texts = ["", "I like short answers.", "x" * 5_000_000]
    first = minilm.embed_batch(texts)
    assert minilm.model_id == "minilm-l6-v2" and minilm.ndim == 384
    assert first.shape == (3, 384) and first.dtype == np.float32
    assert _unit_rows(first)
    again = minilm.embed_batch(list(reversed(texts)))[::-1]
    np.testing.assert_allclose(first, again, atol=1e-5)
    np.testing.assert_allclose(minilm.embed(texts[1]), first[1], atol=1e-5)
    assert minilm.embed_batch([]).shape == (0, 384)


def test_minilm_runs_on_one_thread(minilm, minilm_torch, monkeypatch):
    import torch

    assert torch.get_num_threads() == 1
    assert minilm.threads == 1  # BLAS is pinned to this many threads while it embeds
    monkeypatch.setenv("IBACHAT_TORCH_THREADS", "2")
    two = minilm_embedder()
    two.load()
    assert two.threads == 2


def test_minilm_semantic_sanity(minilm):
    dentist, teeth, trains = minilm.embed_batch(
        [
            "I have an appointment with my dentist on Monday.",
            "My teeth hurt and one of them needs a filling.",
            "The regional trains are late again this morning.",
        ]
    )
    assert float(dentist @ teeth) > float(dentist @ trains) + 0.1


def test_minilm_matches_manual_mean_pooling_and_flagembedding_encode(minilm, minilm_torch):
    import torch
    from transformers import AutoModel, AutoTokenizer

    texts = ["Please keep answers brief.", "", "The dentist pulled a tooth; soft food only this week."]
    folder = str(minilm_folder())
    tok = AutoTokenizer.from_pretrained(folder)
    model = AutoModel.from_pretrained(folder).eval()
    ref = []
    with torch.no_grad():
        for text in texts:  # one at a time: no padding at all
            enc = tok(text, return_tensors="pt", truncation=True, max_length=256)
            hidden = model(**enc).last_hidden_state[0].numpy()
            mean = hidden.mean(axis=0)
            ref.append(mean / np.linalg.norm(mean))
    ours = minilm.embed_batch(texts)
    np.testing.assert_allclose(ours, np.stack(ref), atol=1e-5)
    # FlagEmbedding's own encode (our forward pass replaces it) gives the same vectors
    lib = minilm_torch._flag.encode(texts, batch_size=8)
    np.testing.assert_allclose(ours, lib, atol=1e-5)
    np.testing.assert_allclose(minilm_torch.embed_batch(texts), lib, atol=1e-5)
    # and pooling matters: CLS pooling on the same model gives other vectors
    cls = FlagSentenceEmbedder(folder, pooling="cls").embed_batch(texts)
    assert float(np.min(np.sum(cls * ours, axis=1))) < 0.99


def test_query_instruction_is_prepended(minilm):
    folder = minilm_folder()
    emb = FlagSentenceEmbedder(folder, query_instruction="query: ", model_id="q")
    got = emb.embed_queries(["coffee"])
    np.testing.assert_allclose(got, minilm.embed_batch(["query: coffee"]), atol=1e-5)


def test_ndim_and_describe_without_importing_heavy_modules():
    code = (
        "import sys\n"
        "import memory.embedders.flag, memory.embedders.ollama_embed, memory.embedders.hashing\n"
        "from memory.embedders.registry import load_embedder, describe_embedder\n"
        "heavy = ('torch', 'FlagEmbedding', 'transformers', 'ollama', 'huggingface_hub')\n"
        "assert not [m for m in heavy if m in sys.modules], 'import'\n"
        "e = load_embedder(None)\n"
        "info = describe_embedder('minilm')\n"
        "assert info['available'], info\n"
        "print(e.ndim, info['model_id'], [m for m in ('torch', 'FlagEmbedding', 'transformers') if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["384", "minilm-l6-v2", "[]"]


def test_bad_thread_setting_is_one_line(monkeypatch):
    monkeypatch.setenv("IBACHAT_TORCH_THREADS", "lots")
    with pytest.raises(EmbedderUnavailable, match="IBACHAT_TORCH_THREADS must be a positive whole number"):
        minilm_embedder().load()


# ---------------------------------------------------------------- BGE-M3 on a tiny checkpoint

_WORDS = (
    "the a i my is on dentist teeth tooth train station coffee tea like short long answers please".split()
)


def _build_tiny_m3(folder: Path, heads: bool = True) -> Path:
    """A tiny XLM-RoBERTa (hidden 32, 2 layers) with a word-level tokenizer, saved like bge-m3."""
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast, XLMRobertaConfig, XLMRobertaModel

    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for word in _WORDS:
        vocab[word] = len(vocab)
    core = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    core.normalizer = normalizers.Lowercase()
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    core.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>", special_tokens=[("<s>", 0), ("</s>", 2)]
    )
    tok = PreTrainedTokenizerFast(
        tokenizer_object=core,
        bos_token="<s>",
        eos_token="</s>",
        cls_token="<s>",
        sep_token="</s>",
        pad_token="<pad>",
        unk_token="<unk>",
        model_max_length=64,
    )
    torch.manual_seed(0)
    config = XLMRobertaConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        max_position_embeddings=80,
        pad_token_id=1,
        bos_token_id=0,
        eos_token_id=2,
    )
    XLMRobertaModel(config).save_pretrained(folder)
    tok.save_pretrained(folder)
    if heads:
        torch.save(torch.nn.Linear(32, 32).state_dict(), folder / "colbert_linear.pt")
        torch.save(torch.nn.Linear(32, 1).state_dict(), folder / "sparse_linear.pt")
    return folder


@pytest.fixture(scope="module")
def tiny_m3(tmp_path_factory) -> Path:
    return _build_tiny_m3(tmp_path_factory.mktemp("tiny-m3"))


M3_TEXTS = ["my dentist is on the train", "", "I like tea", "please short answers " * 30]


def test_bge_m3_dense_sparse_colbert_match_bgem3flagmodel(tiny_m3):
    emb = BGEM3Embedder(tiny_m3, use_sparse=True)
    assert emb.ndim == 32 and emb.model_id == f"bge-m3@{tiny_m3.name}" and not emb.loaded
    got = emb.encode(M3_TEXTS, colbert=True)
    assert got.dense.shape == (4, 32) and got.dense.dtype == np.float32 and _unit_rows(got.dense)
    assert got.sparse is not None and got.colbert is not None

    assert emb.max_length == 64  # the tokenizer's limit (the position table allows 78)
    lib = emb._flag.encode(
        M3_TEXTS, batch_size=8, max_length=64, return_dense=True, return_sparse=True, return_colbert_vecs=True
    )
    np.testing.assert_allclose(got.dense, lib["dense_vecs"], atol=1e-5)
    for ours, theirs in zip(got.sparse, lib["lexical_weights"]):
        assert set(ours) == set(theirs)
        assert all(isinstance(k, str) and type(v) is float for k, v in ours.items())
        for key, weight in ours.items():
            assert weight == pytest.approx(float(theirs[key]), abs=1e-5)
    for ours, theirs in zip(got.colbert, lib["colbert_vecs"]):
        assert ours.shape == theirs.shape
        np.testing.assert_allclose(ours, theirs, atol=1e-5)
    # "my dentist is on the train" -> <s> + 6 words + </s>: ColBERT drops <s>
    assert got.colbert[0].shape == (7, 32)
    assert got.sparse[1] == {}  # the empty text has only special tokens
    special = {"0", "1", "2", "3"}
    assert all(not (set(w) & special) for w in got.sparse)

    np.testing.assert_allclose(emb.embed_batch(M3_TEXTS[:2]), got.dense[:2], atol=1e-5)
    (again,) = emb.embed_sparse(M3_TEXTS[:1])  # a second pass may differ in the last float bits
    assert set(again) == set(got.sparse[0])
    assert all(again[k] == pytest.approx(got.sparse[0][k], abs=1e-5) for k in again)
    assert emb.embed_batch([]).shape == (0, 32)


def test_bge_m3_without_heads_gives_dense_only(tmp_path):
    folder = _build_tiny_m3(tmp_path / "no-heads", heads=False)
    emb = BGEM3Embedder(folder)
    assert emb.embed_batch(["tea"]).shape == (1, 32)
    with pytest.raises(EmbedderUnavailable, match="sparse_linear.pt"):
        emb.embed_sparse(["tea"])
    with pytest.raises(EmbedderUnavailable, match="sparse_linear.pt"):
        BGEM3Embedder(folder, use_sparse=True).load()


def test_broken_model_folder_is_one_line(tiny_m3, tmp_path):
    folder = tmp_path / "broken"
    shutil.copytree(tiny_m3, folder)
    (folder / "model.safetensors").write_bytes(b"not a safetensors file")
    with pytest.raises(EmbedderUnavailable) as err:
        BGEM3Embedder(folder).embed("tea")
    assert str(err.value).startswith(f"cannot load embedding model '{folder}': ")
    assert "\n" not in str(err.value)
    (folder / "config.json").unlink()
    with pytest.raises(EmbedderUnavailable, match="has no config.json"):
        FlagSentenceEmbedder(folder).embed("tea")


def test_hub_name_found_in_hf_cache(tiny_m3, tmp_path, monkeypatch):
    cache = tmp_path / "hub"
    snapshot = cache / "models--tiny--m3" / "snapshots" / "0123abcd"
    shutil.copytree(tiny_m3, snapshot)
    (cache / "models--tiny--m3" / "refs").mkdir()
    (cache / "models--tiny--m3" / "refs" / "main").write_text("0123abcd")
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    emb = load_embedder(f"bge-m3:{tiny_m3}")
    assert isinstance(emb, BGEM3Embedder) and emb.folder == tiny_m3
    cached = BGEM3Embedder("tiny/m3")
    assert cached.folder == snapshot and cached.ndim == 32
    np.testing.assert_allclose(cached.embed_batch(["i like tea"]), emb.embed_batch(["i like tea"]), atol=1e-6)


def test_hub_name_not_cached_fails_fast_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    start = time.perf_counter()
    with pytest.raises(EmbedderUnavailable) as err:
        load_embedder("bge-m3").embed("hello")
    assert time.perf_counter() - start < 5
    msg = str(err.value)
    assert "\n" not in msg and "'BAAI/bge-m3'" in msg and "hf download BAAI/bge-m3" in msg
    with pytest.raises(EmbedderUnavailable, match="not in the Hugging Face cache"):
        FlagSentenceEmbedder("sentence-transformers/all-MiniLM-L6-v2").ndim  # noqa: B018


# ---------------------------------------------------------------- Ollama over HTTP


class _FakeOllama(BaseHTTPRequestHandler):
    """Answers /api/embed and /api/show the way Ollama does; knows only the model 'tiny-embed'."""

    requests: list[dict[str, Any]] = []
    show_size = True

    def log_message(self, *args: Any) -> None:
        pass

    def _reply(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, **body})
        if body.get("model") != "tiny-embed":
            self._reply(404, {"error": f'model "{body.get("model")}" not found, try pulling it first'})
        elif self.path == "/api/embed":
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            vecs = [[float(len(t)), 2.0, 0.0, float(t.count("a"))] for t in texts]
            self._reply(200, {"model": body["model"], "embeddings": vecs})
        elif self.path == "/api/show":
            info = {"general.architecture": "bert"}
            if type(self).show_size:
                info["bert.embedding_length"] = 4
            self._reply(200, {"modelfile": "", "model_info": info})
        else:
            self._reply(404, {"error": "not found"})


@pytest.fixture
def ollama_server() -> Iterator[str]:
    _FakeOllama.requests = []
    _FakeOllama.show_size = True
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeOllama)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(5)


def test_ollama_embeds_through_the_real_client(ollama_server, monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", ollama_server)
    emb = OllamaEmbedder("tiny-embed")
    emb.batch_size = 2
    assert emb.url == ollama_server and emb.model_id == "ollama:tiny-embed"
    vecs = emb.embed_batch(["banana", "", "abc"])
    assert vecs.shape == (3, 4) and vecs.dtype == np.float32 and _unit_rows(vecs)
    expected = np.array([[6, 2, 0, 3], [1, 2, 0, 0], [3, 2, 0, 1]], dtype=np.float32)
    np.testing.assert_allclose(vecs, expected / np.linalg.norm(expected, axis=1, keepdims=True), atol=1e-6)
    embeds = [r for r in _FakeOllama.requests if r["path"] == "/api/embed"]
    assert [r["input"] for r in embeds] == [["banana", " "], ["abc"]]
    assert emb.ndim == 4  # learned from the first reply, no /api/show needed
    assert all(r["path"] == "/api/embed" for r in _FakeOllama.requests)


def test_ollama_ndim_from_show_or_first_reply(ollama_server):
    assert OllamaEmbedder("tiny-embed", host=ollama_server).ndim == 4
    assert [r["path"] for r in _FakeOllama.requests] == ["/api/show"]
    _FakeOllama.show_size = False
    assert OllamaEmbedder("tiny-embed", host=ollama_server).ndim == 4
    assert [r["path"] for r in _FakeOllama.requests][1:] == ["/api/show", "/api/embed"]


def test_ollama_missing_model_says_pull(ollama_server):
    with pytest.raises(EmbedderUnavailable) as err:
        OllamaEmbedder("nomic-embed-text", host=ollama_server).embed("hi")
    assert str(err.value) == (
        f"Ollama at {ollama_server} has no model 'nomic-embed-text'; run `ollama pull nomic-embed-text`"
    )


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_ollama_server_down_says_serve():
    port = _closed_port()
    start = time.perf_counter()
    with pytest.raises(EmbedderUnavailable) as err:
        OllamaEmbedder(host=f"127.0.0.1:{port}").embed("hi")
    assert time.perf_counter() - start < 5
    assert str(err.value).startswith(f"cannot reach Ollama at http://127.0.0.1:{port} ")
    assert "`ollama serve`" in str(err.value)


# ---------------------------------------------------------------- hashing


def test_hash_embedder_is_deterministic_unit_and_lexical():
    emb = HashEmbedder(128)
    texts = ["I prefer window seats on trains", "window seat on the train please", "my dentist visit", ""]
    vecs = emb.embed_batch(texts)
    assert emb.model_id == "hash-128" and vecs.shape == (4, 128) and vecs.dtype == np.float32
    assert _unit_rows(vecs)
    np.testing.assert_array_equal(vecs, HashEmbedder(128).embed_batch(texts))
    assert float(vecs[0] @ vecs[1]) > float(vecs[0] @ vecs[2]) + 0.2
    assert not np.allclose(HashEmbedder(64).embed("tea"), HashEmbedder(64).embed("coffee"))
    with pytest.raises(EmbedderUnavailable):
        HashEmbedder(1)


# ---------------------------------------------------------------- registry


def test_registry_specs(tiny_m3, tmp_path):
    for spec in (None, "", "default", "minilm"):
        emb = load_embedder(spec)
        assert isinstance(emb, NumpyBertEmbedder) and emb.model_id == "minilm-l6-v2" and emb.pooling == "mean"
    assert not emb.loaded
    m3 = load_embedder("bge-m3")
    assert isinstance(m3, BGEM3Embedder) and m3.path_or_name == "BAAI/bge-m3" and m3.model_id == "bge-m3"
    assert isinstance(load_embedder(f"bge-m3:{tiny_m3}"), BGEM3Embedder)
    ollama = load_embedder("ollama:nomic-embed-text:v1.5")
    assert isinstance(ollama, OllamaEmbedder) and ollama.model == "nomic-embed-text:v1.5"
    assert load_embedder("ollama").model == "nomic-embed-text"
    assert load_embedder("hash").ndim == 64 and load_embedder("hash:128").ndim == 128

    folder = tmp_path / "st-model"
    (folder / "1_Pooling").mkdir(parents=True)
    (folder / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode_cls_token": True}))
    for spec in (f"path:{folder}", str(folder)):
        emb = load_embedder(spec)
        assert isinstance(emb, FlagSentenceEmbedder) and emb.pooling == "cls"
    assert load_embedder(f"path:{tiny_m3}").pooling == "mean"


def test_path_spec_loads_a_real_folder(minilm):
    emb = load_embedder(f"path:{minilm_folder()}")
    assert emb.model_id != minilm.model_id
    np.testing.assert_allclose(
        emb.embed_batch(["tea or coffee"]), minilm.embed_batch(["tea or coffee"]), atol=1e-6
    )


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ("word2vec", "unknown embedder 'word2vec'; accepted embedders: \"minilm\""),
        ("hash:big", "at least 2"),
        ("path:", "needs a model folder"),
        ("path:/no/such/folder", "no model folder at /no/such/folder"),
        ("bge-m3:/no/such/folder", "no model folder"),
    ],
)
def test_registry_rejects_bad_specs(spec, match):
    with pytest.raises(EmbedderUnavailable, match=match) as err:
        load_embedder(spec)
    assert "\n" not in str(err.value)


def test_describe_embedder(ollama_server, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    info = describe_embedder(None)
    assert info["available"] and info["kind"] == "minilm" and info["where"] == str(minilm_folder())
    info = describe_embedder("bge-m3")
    assert not info["available"] and "hf download BAAI/bge-m3" in info["reason"]
    assert describe_embedder("hash:32")["model_id"] == "hash-32"
    down = describe_embedder("ollama:tiny-embed", ollama_host=f"127.0.0.1:{_closed_port()}")
    assert not down["available"] and "ollama serve" in down["reason"]
    good = describe_embedder("ollama:tiny-embed", ollama_host=ollama_server)
    assert good["available"] and good["where"] == ollama_server
    missing = describe_embedder("ollama:other", ollama_host=ollama_server)
    assert not missing["available"] and "ollama pull other" in missing["reason"]
    unknown = describe_embedder("nope")
    assert unknown["kind"] == "unknown" and not unknown["available"] and "accepted" in unknown["reason"]
