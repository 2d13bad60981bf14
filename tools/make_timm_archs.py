#!/usr/bin/env python3
"""vit.h's table of timm ViT architectures (vit__timm_archs[]), from timm's source.

timm's config.json names the architecture but not what its constructor fixes
(activation, LayerNorm eps, block and MLP kinds): those live in timm's source.
This builds every architecture of timm's vision_transformer and deit modules
on the meta device and records, per name, what vit.h needs to know:
    g  exact GELU, LayerNorm eps 1e-6 (timm's default ViT)
    G  exact GELU, eps 1e-5 (nn.LayerNorm: timm's CLIP archs)
    q  QuickGELU, eps 1e-5        t  tanh GELU, eps 1e-6
    s  SwiGLU (packed fc1, gate first), eps 1e-6
    x  something vit.h does not compute (the reason follows)

    python3 tools/make_timm_archs.py           # rewrites the table in vit.h
    python3 tools/make_timm_archs.py --check   # exit 1 if vit.h differs (77: other timm)

Needs timm and torch. The table lies between the lines '// ---- timm architectures:
begin' and '// ---- timm architectures: end' (tools/tables.py); until vit.h has them,
it is the array vit__timm_archs[] itself, and the comment above it names the timm version.
"""
import os
import re
import sys

import timm
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tables  # noqa: E402  (tools/tables.py: where each table is, and the splice)

BEGIN, END = tables.TABLES["timm_archs"][:2]
ARRAY = "static const struct vit__timm_arch { const char *name; char kind; const char *why; } vit__timm_archs[] = {"


def kind(m):
    b = m.blocks[0]
    why = []
    if type(b).__name__ != 'Block':
        why.append(type(b).__name__)
    attn = getattr(b, 'attn', None)
    if attn is not None and type(attn).__name__ != 'Attention':
        why.append(type(attn).__name__)
    for owner, nm in ((b, 'norm1'), (m, 'norm'), (m, 'fc_norm'), (m, 'norm_pre'), (m.patch_embed, 'norm')):
        n = getattr(owner, nm, None)
        if n is not None and type(n).__name__ not in ('LayerNorm', 'Identity'):
            why.append(type(n).__name__)
    if attn is not None and type(getattr(attn, 'norm', torch.nn.Identity())).__name__ != 'Identity':
        why.append('attention output norm')
    mlp = getattr(b, 'mlp', None)
    if mlp is not None and type(getattr(mlp, 'norm', torch.nn.Identity())).__name__ != 'Identity':
        why.append('MLP norm')
    if getattr(m.patch_embed, 'dynamic_img_pad', False):
        why.append('dynamic_img_pad')
    if m.pos_embed is None:
        why.append('no position embedding')
    if why:
        return 'x', ', '.join(sorted(set(why)))
    eps = b.norm1.eps
    mt, act = type(mlp).__name__, type(mlp.act).__name__
    if mt == 'GluMlp' and act == 'SiLU' and not mlp.gate_last and eps == 1e-6:
        return 's', ''
    if mt != 'Mlp':
        return 'x', mt
    if act == 'GELU' and mlp.act.approximate == 'none':
        return {1e-6: 'g', 1e-5: 'G'}.get(eps, 'x'), '' if eps in (1e-6, 1e-5) else f'eps {eps}'
    if act == 'QuickGELU' and eps == 1e-5:
        return 'q', ''
    if act == 'GELUTanh' and eps == 1e-6:
        return 't', ''
    return 'x', f'{act} with eps {eps}'


def rows():
    names = sorted(set(timm.list_models(module='vision_transformer')) | set(timm.list_models(module='deit')))
    out = []
    for n in names:
        with torch.device('meta'):
            m = timm.create_model(n, pretrained=False)
        k, why = kind(m)
        out.append(f'    {{"{n}", \'{k}\', "{why}"}},')
    return out


def main():
    r = rows()
    what = "timm architectures table (%d, timm %s)" % (len(r), timm.__version__)
    if tables.has_markers("timm_archs"):
        tables.splice("timm_archs", [BEGIN + " (tools/make_timm_archs.py; do not edit)",
                                     f"// timm {timm.__version__}'s vision_transformer and deit modules",
                                     ARRAY] + r + ["};", END], what)
    else:
        # no marker lines yet: the array alone, its timm version in the comment above it
        with open(tables.VIT_H, encoding="utf-8") as f:
            m = re.search(r"timm ([0-9][0-9.a-z]*)'s vision_transformer", f.read())
        tables.splice("timm_archs", [ARRAY] + r + ["};"], what, made=("timm " + (m.group(1) if m else "?"), "timm " + timm.__version__))


if __name__ == '__main__':
    main()
