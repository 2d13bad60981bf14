"""Seed corpus for tests/fuzz/fuzz_index.c: models of tests/fuzz/corpus_load
split into shards with a model.safetensors.index.json as transformers writes
them, in fuzz_index's input layout, plus a few malformed indexes. Standard
library only.

    python3 tools/make_fuzz_index_corpus.py   # writes tests/fuzz/corpus_index/
"""
import json, os, struct

FUZZ = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fuzz")


def u16(b):
    assert len(b) < 65536
    return struct.pack("<H", len(b)) + b


def split(st, nshards):
    """safetensors bytes -> (index text, [shard bytes]), tensors in file order split by size."""
    hlen = struct.unpack("<Q", st[:8])[0]
    hdr = json.loads(st[8:8 + hlen])
    body = st[8 + hlen:]
    hdr.pop("__metadata__", None)
    names = sorted(hdr, key=lambda k: hdr[k]["data_offsets"][0])
    total = sum(hdr[k]["data_offsets"][1] - hdr[k]["data_offsets"][0] for k in names)
    parts, at = [[] for _ in range(nshards)], 0
    for k in names:
        b, e = hdr[k]["data_offsets"]
        parts[min(at * nshards // total, nshards - 1)].append(k)
        at += e - b
    files = ["model-%05d-of-%05d.safetensors" % (i + 1, nshards) for i in range(nshards)]
    shards, weight_map = [], {}
    for i, part in enumerate(parts):
        h, data = {"__metadata__": {"format": "pt"}}, b""
        for k in part:
            b, e = hdr[k]["data_offsets"]
            h[k] = {"dtype": hdr[k]["dtype"], "shape": hdr[k]["shape"], "data_offsets": [len(data), len(data) + e - b]}
            data += body[b:e]
            weight_map[k] = files[i]
        ht = json.dumps(h, separators=(",", ":")).encode()
        ht += b" " * (-len(ht) % 8)
        shards.append(struct.pack("<Q", len(ht)) + ht + data)
    index = json.dumps({"metadata": {"total_size": total}, "weight_map": weight_map}, indent=2, sort_keys=True) + "\n"
    return index.encode(), shards


def seed(name, index, cfg, shards):
    data = u16(index) + u16(cfg) + b"".join(u16(s) for s in shards[:-1]) + (shards[-1] if shards else b"")
    with open(os.path.join(FUZZ, "corpus_index", name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(os.path.join(FUZZ, "corpus_index"), exist_ok=True)
    for case, n in (("hf_vit", 2), ("timm_token_f32", 3), ("hf_dinov2_registers", 2)):
        raw = open(os.path.join(FUZZ, "corpus_load", case), "rb").read()
        if raw[0] & 1:
            clen = raw[1] | raw[2] << 8
            cfg, st = raw[3:3 + clen], raw[3 + clen:]
        else:
            cfg, st = b"", raw[1:]
        index, shards = split(st, n)
        seed("%s_%d_shards" % (case, n), index, cfg, shards)
    seed("bad_dotdot", b'{"weight_map": {"a": "../model.safetensors"}}', b"", [b""])
    seed("bad_not_json", b"weight_map: x.safetensors", b"", [])
    seed("bad_extra_key", b'{"metadata": {}, "weight_map": {"a": "m.safetensors"}, "x": 1}', b"", [b""])


if __name__ == "__main__":
    main()
