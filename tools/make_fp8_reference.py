"""e4m3 references for tests/test_ops_cpu.c (VIT_DTYPE_FP8's rounding):
torch's own float32 -> float8_e4m3fn conversion and its decoding of all 256 codes.

    python3 tools/make_fp8_reference.py   # writes tests/data/fp8/e4m3.bin

e4m3.bin: uint32 n, then n float32 inputs, n uint8 codes (torch's .to(float8_e4m3fn)),
then 256 float32 values (code k decoded by torch; NaN for 0x7F and 0xFF). The inputs:
every e4m3 value, the midpoints between neighbours (ties to even) and one float32
ulp either side of them, values past 448 and below the smallest subnormal, zeros,
infinities, NaN, and log-uniform random values of both signs.
"""
import os, struct
import numpy as np
import torch

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "fp8", "e4m3.bin")
codes = torch.arange(256, dtype=torch.uint8)
values = codes.view(torch.float8_e4m3fn).float().numpy()
finite = np.sort(np.unique(values[np.isfinite(values)]))
mid = (finite[:-1] + finite[1:]) / 2
ins = [finite, mid, np.nextafter(mid, np.inf, dtype=np.float32), np.nextafter(mid, -np.inf, dtype=np.float32),
       np.array([448.0, 449.0, 463.9, 464.0, 464.1, 479.9, 480.0, 1e4, 3e38, 2.0 ** -10, 2.0 ** -11, 1e-30, 1e-45, 0.0, -0.0,
                 np.inf, -np.inf, np.nan], np.float32)]
rng = np.random.default_rng(18)
r = np.exp(rng.uniform(np.log(2.0 ** -12), np.log(600.0), 4000)) * rng.choice([-1.0, 1.0], 4000)
ins.append(r)
x = np.concatenate([a.astype(np.float32) for a in ins])
x = np.concatenate([x, -x])
q = torch.from_numpy(x).to(torch.float8_e4m3fn).view(torch.uint8).numpy()
os.makedirs(os.path.dirname(OUT), exist_ok=True)
with open(OUT, "wb") as f:
    f.write(struct.pack("<I", len(x)))
    f.write(x.astype("<f4").tobytes())
    f.write(q.astype(np.uint8).tobytes())
    f.write(values.astype("<f4").tobytes())
print(len(x), "inputs;", OUT)
