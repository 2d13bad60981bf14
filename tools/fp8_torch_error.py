#!/usr/bin/env python3
# What e4m3 itself costs, measured in PyTorch alone (against fp8's 5e-2 logit gate): a timm model
# with its blocks' linears fake-quantised as VIT_DTYPE_FP8 quantises them (inputs per token,
# weights per output channel, each scaled to amax / 448 and rounded to torch.float8_e4m3fn; fp32
# math otherwise), against the same model in fp32, on random images. Error = max |difference| /
# max |fp32 logit|, as tests/test_util.h's rel_err.
#   python3 tools/fp8_torch_error.py [--model vit_base_patch16_224] [--batch 4] [--linears qkv,proj,fc1,fc2]
import argparse
import torch, timm

ap = argparse.ArgumentParser()
ap.add_argument('--model', default='vit_base_patch16_224')
ap.add_argument('--batch', type=int, default=4)
ap.add_argument('--linears', default='qkv,proj,fc1,fc2', help='which of each block\'s linears to quantise')
ap.add_argument('--seed', type=int, default=0)
args = ap.parse_args()

def e4m3(t, dim):
    s = t.abs().amax(dim=dim, keepdim=True).clamp(min=1e-30) / 448.0
    return (t / s).to(torch.float8_e4m3fn).to(torch.float32) * s

torch.manual_seed(args.seed)
model = timm.create_model(args.model).eval()
size = model.pretrained_cfg.get('input_size', (3, 224, 224))
x = torch.randn(args.batch, *size)
with torch.no_grad():
    ref = model(x)
which = set(args.linears.split(','))
for blk in model.blocks:
    for name, lin in (('qkv', blk.attn.qkv), ('proj', blk.attn.proj), ('fc1', blk.mlp.fc1), ('fc2', blk.mlp.fc2)):
        if name in which:
            lin.weight.data = e4m3(lin.weight.data, 1)
            lin.register_forward_pre_hook(lambda mod, a: (e4m3(a[0], -1),))
with torch.no_grad():
    y = model(x)
print('%s, e4m3 %s: logits rel err %.3e' % (args.model, ','.join(sorted(which)), ((y - ref).abs().max() / ref.abs().max()).item()))
