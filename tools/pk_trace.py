#!/usr/bin/env python3
"""The persistent kernel's work items in one pass (vit_bench's VIT_PK_TRACE file):
per stage, how long items waited for their inputs and how long they ran; the
pass's span and the SMs' busy share; with --png, the timeline (SMs x time, one
bar per item, coloured by stage, its wait hatched).

usage: python3 tools/pk_trace.py TRACE.bin [--png OUT.png] [--title TEXT]
"""
import argparse
import struct
import sys

STAGES = ["qkv", "attention", "proj", "ln2", "fc1", "fc2", "ln1"]


def load(path):
    raw = open(path, "rb").read()
    items = []
    for i in range(len(raw) // 32):
        c, r, d, w = struct.unpack_from("<4Q", raw, 32 * i)
        items.append(dict(claim=c, ready=r, done=d, sm=w & 0xFF, stage=(w >> 8) & 0xFF, block=w >> 16))
    return items


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("--png")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    it = load(a.trace)
    if not it:
        sys.exit("no work items in " + a.trace)
    t0 = min(x["claim"] for x in it)
    span = (max(x["done"] for x in it) - t0) / 1e3
    sms = sorted({x["sm"] for x in it})
    busy = sum(x["done"] - x["ready"] for x in it) / 1e3
    waiting = sum(x["ready"] - x["claim"] for x in it) / 1e3
    print(f"{len(it)} work items on {len(sms)} SMs, pass {span:.1f} us; SM time: running {100 * busy / (span * len(sms)):.0f}%, "
          f"waiting for inputs {100 * waiting / (span * len(sms)):.0f}%")
    print(f"{'stage':10} {'items':>6} {'wait us (median)':>17} {'run us (median)':>16} {'run us (max)':>13} {'SM-us run':>10}")
    for s, name in enumerate(STAGES):
        v = [x for x in it if x["stage"] == s]
        if not v:
            continue
        w = [(x["ready"] - x["claim"]) / 1e3 for x in v]
        r = [(x["done"] - x["ready"]) / 1e3 for x in v]
        print(f"{name:10} {len(v):6d} {median(w):17.2f} {median(r):16.2f} {max(r):13.2f} {sum(r):10.0f}")
    blocks = sorted({x["block"] for x in it})
    per = [(max(x["done"] for x in it if x["block"] == b) - min(x["claim"] for x in it if x["block"] == b)) / 1e3 for b in blocks]
    ends = [max(x["done"] for x in it if x["block"] == b) for b in blocks]
    steps = [(ends[i] - ends[i - 1]) / 1e3 for i in range(1, len(ends))]
    print(f"blocks: {len(blocks)}, one block's items span {median(per):.1f} us (median); a block ends {median(steps) if steps else 0:.1f} us after the one before (median)")
    if a.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        colors = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb"]
        row = {s: i for i, s in enumerate(sms)}
        fig, ax = plt.subplots(figsize=(14, 7), dpi=110)
        for x in it:
            y = row[x["sm"]]
            c0, r0, d0 = (x["claim"] - t0) / 1e3, (x["ready"] - t0) / 1e3, (x["done"] - t0) / 1e3
            if r0 > c0:
                ax.barh(y, r0 - c0, left=c0, height=0.8, color="white", edgecolor=colors[x["stage"]], linewidth=0.2, hatch="////")
            ax.barh(y, d0 - r0, left=r0, height=0.8, color=colors[x["stage"]], linewidth=0)
        for s, name in enumerate(STAGES):
            ax.barh(-5, 0, color=colors[s], label=name)
        ax.barh(-5, 0, color="white", edgecolor="k", hatch="////", label="waiting for inputs")
        ax.set_ylim(-1, len(sms))
        ax.set_xlabel("us from the first claim")
        ax.set_ylabel("SM")
        ax.set_title(a.title or f"persistent kernel: {len(it)} work items, {span:.0f} us")
        ax.legend(loc="upper right", ncol=4, fontsize=8)
        fig.tight_layout()
        fig.savefig(a.png)
        print("wrote", a.png)


if __name__ == "__main__":
    main()
