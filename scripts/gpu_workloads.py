#!/usr/bin/env python3
# Copyright 2026 The WorkloadTruth Authors. SPDX-License-Identifier: Apache-2.0
"""WorkloadTruth's own programme of labelled GPU workloads ("set B"), recorded as nvidia-smi CSVs.

It complements ../shared/device/record_real.py (whose programme made data/real-h200): bigger and
different jobs, closer to what a cluster runs, so that one set can calibrate and the other test.
Training: a ~1B-parameter decoder LM pre-trained with AdamW; ResNet-50 trained from host-side
batches; LoRA fine-tuning of the frozen LM; the LM held at 40 % utilisation by a PI controller
that reads NVML (evasion); online learning hidden in a serving loop (evasion). Inference: batch
generation with a KV cache; Poisson serving from a KV pool reserved up front, as vLLM does; a
BERT-style embedding service; ResNet-50 batch inference. HPC: a 3-D Jacobi stencil and an O(N^2)
n-body step. Mining: double SHA-256 over nonces in a CUDA kernel (CuPy), integer-only. Idle: the
caching allocator still holding a finished job's memory.

The NVML poller and CSV form are record_real.py's (imported from the copy that
scripts/record_real_gpu.sh packs into .devrun/), so both sets are recorded the same way.
Usage: python3 gpu_workloads.py --out traces.tar.gz [--seconds 34] [--only NAME,...]
       [--deadline S]   stop starting workloads after S seconds, still writing what was recorded
       python3 gpu_workloads.py --dry-run   every workload, tiny, on the CPU, no NVML (a check)
"""
import argparse, io, math, os, random, sys, tarfile, time, traceback

import torch
import torch.nn.functional as F
from torch import nn

DEV = "cuda"
SIZE = {"d": 2048, "layers": 16, "heads": 16, "vocab": 32000, "seq": 1024, "batch": 8,
        "img": 224, "img_batch": 128, "grid": 512, "bodies": 16384, "kv_frac": 0.85}
TINY = {"d": 64, "layers": 2, "heads": 4, "vocab": 500, "seq": 32, "batch": 2,
        "img": 32, "img_batch": 2, "grid": 16, "bodies": 64, "kv_frac": 0.0}


def sync():
    if DEV == "cuda":
        torch.cuda.synchronize()


def autocast():
    return torch.autocast(DEV, dtype=torch.bfloat16)


# ---- a decoder/encoder transformer with an explicit KV cache ------------------------------------

def attention(q, k, v, causal):
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    s = (q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    if causal:
        t = s.shape[-1]
        s = s.masked_fill(torch.ones(t, t, dtype=torch.bool, device=s.device).triu(1), float("-inf"))
    return s.softmax(-1) @ v


class LoRA(nn.Module):
    """A frozen linear layer plus a trainable low-rank update (Hu et al., 2021)."""

    def __init__(self, base, rank=16):
        super().__init__()
        self.base = base
        self.a = nn.Parameter(torch.randn(rank, base.in_features, device=base.weight.device) * 0.01)
        self.b = nn.Parameter(torch.zeros(base.out_features, rank, device=base.weight.device))

    def forward(self, x):
        return self.base(x) + (x @ self.a.t().to(x.dtype)) @ self.b.t().to(x.dtype)


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        f = (8 * d // 3 + 255) // 256 * 256  # SwiGLU width, as LLaMA sizes it
        self.heads, self.n1, self.n2 = heads, nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.o = nn.Linear(d, 3 * d, bias=False), nn.Linear(d, d, bias=False)
        self.gate_up, self.down = nn.Linear(d, 2 * f, bias=False), nn.Linear(f, d, bias=False)

    def forward(self, x, causal, cache=None, pos=0):
        b, t, d = x.shape
        q, k, v = self.qkv(self.n1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        if cache is not None:  # write this step's keys/values, attend over everything so far
            kc, vc = cache
            kc[:b, :, pos:pos + t], vc[:b, :, pos:pos + t] = k, v
            k, v = kc[:b, :, :pos + t], vc[:b, :, :pos + t]
        a = attention(q, k, v, causal and t > 1)
        x = x + self.o(a.transpose(1, 2).reshape(b, t, d))
        g, u = self.gate_up(self.n2(x)).chunk(2, -1)
        return x + self.down(F.silu(g) * u)


class LM(nn.Module):
    def __init__(self, d, layers, heads, vocab, causal=True):
        super().__init__()
        self.causal, self.heads = causal, heads
        self.emb, self.norm = nn.Embedding(vocab, d), nn.LayerNorm(d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.head = nn.Linear(d, vocab, bias=False) if causal else None

    def forward(self, x, caches=None, pos=0):
        h = self.emb(x)
        for i, blk in enumerate(self.blocks):
            h = blk(h, self.causal, caches[i] if caches else None, pos)
        h = self.norm(h)
        return self.head(h) if self.head is not None else h

    def new_caches(self, batch, length, dtype):
        d = self.emb.embedding_dim
        shape = (batch, self.heads, length, d // self.heads)
        return [(torch.empty(shape, dtype=dtype, device=DEV), torch.empty(shape, dtype=dtype, device=DEV))
                for _ in self.blocks]


def build(make):
    """Builds a module on the device directly where torch can (2.0+): a 1B model initialised on the
    host would spend seconds of the recording on the CPU."""
    if not hasattr(torch, "set_default_device"):
        return make().to(DEV)
    torch.set_default_device(DEV)
    try:
        return make()
    finally:
        torch.set_default_device("cpu")


def make_lm(scale=1, causal=True, depth=1.0):
    return build(lambda: LM(SIZE["d"] // scale, max(1, int(SIZE["layers"] * depth) // scale), SIZE["heads"],
                            SIZE["vocab"], causal))


def tokens(b, t):
    return torch.randint(0, SIZE["vocab"], (b, t), device=DEV)


def lm_loss(m, x):
    with autocast():
        return F.cross_entropy(m(x).flatten(0, 1).float(), x.flatten())


@torch.no_grad()
def generate(m, prompt, new, caches):
    """Prefill the prompt, then decode `new` tokens one at a time from the KV cache."""
    with autocast():
        nxt = m(prompt, caches, 0)[:, -1].argmax(-1, keepdim=True)
        for i in range(new - 1):
            nxt = m(nxt, caches, prompt.shape[1] + i)[:, -1].argmax(-1, keepdim=True)
    sync()


# ---- training -----------------------------------------------------------------------------------

def lm_pretrain(secs):
    m = make_lm()
    opt = torch.optim.AdamW(m.parameters(), lr=1e-4)
    end = time.time() + secs
    while time.time() < end:
        loss = lm_loss(m, tokens(SIZE["batch"], SIZE["seq"]))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sync()


def host_batches(n, batch):
    """Pinned host batches, cycled: the job copies a batch to the GPU every step, as a data loader does."""
    pin = DEV == "cuda"
    return [torch.randint(0, 256, (batch, 3, SIZE["img"], SIZE["img"]), dtype=torch.uint8).pin_memory()
            if pin else torch.randint(0, 256, (batch, 3, SIZE["img"], SIZE["img"]), dtype=torch.uint8)
            for _ in range(n)]


def to_images(x):
    return (x.to(DEV, non_blocking=True).float() / 255.0 - 0.45).contiguous(memory_format=torch.channels_last)


def resnet50():
    import torchvision
    return build(lambda: torchvision.models.resnet50(num_classes=1000)).to(memory_format=torch.channels_last)


def resnet50_train(secs):
    m, host = resnet50(), host_batches(4, SIZE["img_batch"])
    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    end, i = time.time() + secs, 0
    while time.time() < end:
        x = to_images(host[i % len(host)])
        y = torch.randint(0, 1000, (x.shape[0],), device=DEV)
        with autocast():
            loss = F.cross_entropy(m(x).float(), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sync()
        i += 1


def lm_lora_finetune(secs):
    m = make_lm().to(torch.bfloat16)
    for p in m.parameters():
        p.requires_grad_(False)
    for blk in m.blocks:
        blk.qkv, blk.o = LoRA(blk.qkv), LoRA(blk.o)
    opt = torch.optim.AdamW([p for p in m.parameters() if p.requires_grad], lr=1e-4)
    end = time.time() + secs
    while time.time() < end:
        loss = lm_loss(m, tokens(SIZE["batch"], SIZE["seq"] // 2))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sync()


def nvml_util():
    import pynvml
    return pynvml.nvmlDeviceGetUtilizationRates(pynvml.nvmlDeviceGetHandleByIndex(0)).gpu


def lm_evasion_pid_util40(secs, target=40.0):
    """Trains, sleeping between steps as long as a PI controller on NVML's utilisation says."""
    m = make_lm(scale=2)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-4)
    end, pause, integral = time.time() + secs, 0.1, 0.0
    while time.time() < end:
        loss = lm_loss(m, tokens(SIZE["batch"], SIZE["seq"]))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sync()
        err = (nvml_util() if DEV == "cuda" else target) - target  # > 0: too busy, sleep longer
        integral = max(-50.0, min(50.0, integral + err))
        pause = max(0.0, min(2.0, pause + 0.002 * err + 0.0005 * integral))
        time.sleep(pause)


def lm_evasion_online_learning(secs, rate=3.0):
    """Serves Poisson requests from a KV cache and takes one training step on every 8 served."""
    m = make_lm(scale=2)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-5)
    caches = m.new_caches(4, 512, torch.bfloat16)
    seen, end = [], time.time() + secs
    while time.time() < end:
        time.sleep(random.expovariate(rate))
        prompt = tokens(1 + int(random.random() * 4), 128 if SIZE["seq"] > 64 else 8)
        m.eval()
        generate(m, prompt, 32 if SIZE["seq"] > 64 else 4, caches)
        seen.append(prompt)
        if len(seen) >= 8:
            m.train()
            loss = sum(lm_loss(m, p) for p in seen) / len(seen)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sync()
            seen = []


# ---- inference ----------------------------------------------------------------------------------

def lm_generate_kvcache_batch(secs):
    m = make_lm().eval().to(torch.bfloat16)
    big = SIZE["seq"] > 64
    b, plen, new = (32, 512, 256) if big else (2, 8, 4)
    caches = m.new_caches(b, plen + new, torch.bfloat16)
    end = time.time() + secs
    while time.time() < end:
        generate(m, tokens(b, plen), new, caches)


def lm_serving_poisson_kvpool(secs, rate=3.0):
    """Requests arrive at `rate`/s; each engine pass batches whatever has arrived (up to 16) and serves
    it from a KV pool reserved at start-up (a fraction of free memory, as vLLM does), so memory is flat."""
    m = make_lm().eval().to(torch.bfloat16)
    big = SIZE["seq"] > 64
    max_batch, max_len = (16, 1024) if big else (2, 16)
    caches = m.new_caches(max_batch, max_len, torch.bfloat16)
    if DEV == "cuda" and SIZE["kv_frac"] > 0:
        free, _ = torch.cuda.mem_get_info()
        pool = torch.empty(int(free * SIZE["kv_frac"]), dtype=torch.uint8, device=DEV)  # held, never freed
    start = time.time()
    end, next_arrival, queue = start + secs, start, 0
    while time.time() < end:
        now = time.time()
        while next_arrival <= now:
            queue, next_arrival = queue + 1, next_arrival + random.expovariate(rate)
        if queue == 0:
            time.sleep(min(0.01, max(0.0, next_arrival - now)))
            continue
        b = min(queue, max_batch)
        queue -= b
        plen = random.choice([128, 256, 512]) if big else 4
        generate(m, tokens(b, plen), random.choice([32, 64, 128]) if big else 4, caches)


@torch.no_grad()
def bert_embedding(secs):
    m = make_lm(scale=2, causal=False, depth=3.0).eval().to(torch.bfloat16)
    b, t = (64, 256) if SIZE["seq"] > 64 else (2, 8)
    end = time.time() + secs
    while time.time() < end:
        with autocast():
            F.normalize(m(tokens(b, t)).mean(1).float(), dim=-1).cpu()  # embeddings go back to the host


@torch.no_grad()
def resnet50_batch_infer(secs):
    m, host = resnet50().eval().to(torch.bfloat16), host_batches(4, 2 * SIZE["img_batch"])
    end, i = time.time() + secs, 0
    while time.time() < end:
        with autocast():
            m(to_images(host[i % len(host)])).argmax(-1).cpu()
        i += 1


# ---- HPC, mining, idle --------------------------------------------------------------------------

@torch.no_grad()
def jacobi3d_fp32(secs):
    n = SIZE["grid"]
    u = torch.rand(n, n, n, device=DEV)
    v = u.clone()
    end = time.time() + secs
    while time.time() < end:
        for _ in range(20):
            v[1:-1, 1:-1, 1:-1] = (u[:-2, 1:-1, 1:-1] + u[2:, 1:-1, 1:-1] + u[1:-1, :-2, 1:-1] +
                                   u[1:-1, 2:, 1:-1] + u[1:-1, 1:-1, :-2] + u[1:-1, 1:-1, 2:]) / 6.0
            u, v = v, u
        sync()


@torch.no_grad()
def nbody_fp32(secs, chunks=4):
    n = SIZE["bodies"]
    pos, vel = torch.randn(n, 3, device=DEV), torch.zeros(n, 3, device=DEV)
    end = time.time() + secs
    while time.time() < end:
        acc = torch.empty_like(pos)
        for rows in torch.arange(n, device=DEV).chunk(chunks):
            diff = pos[None, :, :] - pos[rows, None, :]
            inv = (diff.square().sum(-1) + 1e-3).rsqrt() ** 3
            acc[rows] = (diff * inv[..., None]).sum(1)
        vel += 1e-5 * acc
        pos += 1e-3 * vel
        sync()


def _icbrt(n):
    lo, hi = 0, 1 << (n.bit_length() // 3 + 2)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if mid ** 3 <= n else (lo, mid - 1)
    return lo


def sha256_constants():
    """K and H0 of FIPS 180-4, derived exactly from the first 64 primes' cube and square roots."""
    primes = [p for p in range(2, 312) if all(p % q for q in range(2, int(p ** 0.5) + 1))][:64]
    k = [_icbrt(p << 96) & 0xFFFFFFFF for p in primes]
    h = [math.isqrt(p << 64) & 0xFFFFFFFF for p in primes[:8]]
    return k, h


SHA_KERNEL = r"""
#define R(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
__device__ void compress(unsigned int* s, const unsigned int* in) {
  unsigned int w[64];
  for (int i = 0; i < 16; ++i) w[i] = in[i];
  for (int i = 16; i < 64; ++i) {
    unsigned int s0 = R(w[i-15], 7) ^ R(w[i-15], 18) ^ (w[i-15] >> 3);
    unsigned int s1 = R(w[i-2], 17) ^ R(w[i-2], 19) ^ (w[i-2] >> 10);
    w[i] = w[i-16] + s0 + w[i-7] + s1;
  }
  unsigned int a=s[0], b=s[1], c=s[2], d=s[3], e=s[4], f=s[5], g=s[6], h=s[7];
  for (int i = 0; i < 64; ++i) {
    unsigned int t1 = h + (R(e,6) ^ R(e,11) ^ R(e,25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
    unsigned int t2 = (R(a,2) ^ R(a,13) ^ R(a,22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  s[0]+=a; s[1]+=b; s[2]+=c; s[3]+=d; s[4]+=e; s[5]+=f; s[6]+=g; s[7]+=h;
}
extern "C" __global__ void sha256d(unsigned int base, int per_thread, unsigned long long* hits) {
  unsigned int nonce = base + (blockIdx.x * blockDim.x + threadIdx.x) * per_thread;
  for (int j = 0; j < per_thread; ++j, ++nonce) {
    unsigned int blk[16], s[8];
    for (int i = 0; i < 16; ++i) blk[i] = 0x9e3779b9u * (i + 1);
    blk[3] = nonce;
    for (int i = 0; i < 8; ++i) s[i] = H0[i];
    compress(s, blk);
    for (int i = 0; i < 8; ++i) blk[i] = s[i];
    blk[8] = 0x80000000u;
    for (int i = 9; i < 15; ++i) blk[i] = 0;
    blk[15] = 256;
    for (int i = 0; i < 8; ++i) s[i] = H0[i];
    compress(s, blk);
    if ((s[0] >> 16) == 0) atomicAdd(hits, 1ull);
  }
}
"""


def sha256d_cupy(secs):
    import cupy as cp
    k, h = sha256_constants()
    consts = ("__constant__ unsigned int K[64] = {%s};\n__constant__ unsigned int H0[8] = {%s};\n" %
              (",".join("0x%08xu" % x for x in k), ",".join("0x%08xu" % x for x in h)))
    kern = cp.RawKernel(consts + SHA_KERNEL, "sha256d")
    hits, base, blocks, per = cp.zeros(1, dtype=cp.uint64), 0, 132 * 32, 256
    end = time.time() + secs
    while time.time() < end:
        kern((blocks,), (256,), (cp.uint32(base & 0xFFFFFFFF), cp.int32(per), hits))
        cp.cuda.Device(0).synchronize()
        base += blocks * 256 * per
    print(f"  sha256d: {base} nonces, {int(hits.get()[0])} with 16 leading zero bits", flush=True)


def idle_cache_held(secs):
    """A finished job's tensors are freed, but PyTorch's caching allocator keeps their memory."""
    if DEV == "cuda":
        free, _ = torch.cuda.mem_get_info()
        x = torch.empty(int(free * 0.3), dtype=torch.uint8, device=DEV)
        x.fill_(1)
        del x  # no empty_cache(): memory stays reserved, as after a notebook cell
    time.sleep(secs)


PROGRAMME = [  # (label, workload, callable taking seconds)
    ("idle", "idle_cache_held", idle_cache_held),
    ("training", "lm1b_pretrain", lm_pretrain),
    ("training", "resnet50_train", resnet50_train),
    ("training", "lm1b_lora_finetune", lm_lora_finetune),
    ("training", "lm_evasion_pid_util40", lm_evasion_pid_util40),
    ("training", "lm_evasion_online_learning", lm_evasion_online_learning),
    ("inference", "lm1b_generate_kvcache_batch", lm_generate_kvcache_batch),
    ("inference", "lm1b_serving_poisson_kvpool", lm_serving_poisson_kvpool),
    ("inference", "bert_embedding", bert_embedding),
    ("inference", "resnet50_batch_infer", resnet50_batch_infer),
    ("hpc", "jacobi3d_fp32", jacobi3d_fp32),
    ("hpc", "nbody_fp32", nbody_fp32),
    ("mining", "sha256d_cupy", sha256d_cupy),
]


class NoRecorder:
    """For --dry-run: no NVML here."""
    names = ["cpu dry-run"]

    def start(self):
        pass

    def take(self):
        return []

    def stop(self):
        pass


def main():
    global DEV, SIZE
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--seconds", type=float, default=34)
    ap.add_argument("--hz", type=float, default=10)
    ap.add_argument("--only", default="")
    ap.add_argument("--deadline", type=float, default=0)
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    t_start = time.time()
    random.seed(0)
    torch.manual_seed(0)
    if a.dry_run:
        DEV, SIZE, rec, header = "cpu", TINY, NoRecorder(), ""
        a.seconds = min(a.seconds, 1.0)
    else:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".devrun"))
        from record_real import HEADER as header, Recorder
        rec = Recorder(a.hz)
    only = set(filter(None, a.only.split(",")))
    short = rec.names[0].replace("NVIDIA ", "").split()[0].lower()
    rec.start()
    files, failed = {}, []
    for label, name, fn in PROGRAMME:
        if only and name not in only:
            continue
        if a.deadline and time.time() - t_start + a.seconds + 2 > a.deadline:
            print(f"{name}: skipped, the deadline ({a.deadline:.0f} s) would pass", flush=True)
            continue
        if DEV == "cuda":
            torch.cuda.empty_cache()
        time.sleep(0 if a.dry_run else 2)  # settle, and leave a short gap between workloads
        rec.take()
        t0 = time.time()
        try:
            fn(a.seconds)
            sync()
        except Exception:  # one broken workload must not cost the others' recordings
            traceback.print_exc()
            failed.append(name)
            rec.take()
            print(f"{name}: FAILED after {time.time() - t0:.1f} s, not written", flush=True)
            continue
        rows = rec.take()
        files[f"{label}__{short}__{name}.csv"] = header + "\n" + "\n".join(rows) + "\n"
        print(f"{name}: {time.time() - t0:.1f} s, {len(rows)} rows", flush=True)
    rec.stop()
    if a.out:
        with tarfile.open(a.out, "w:gz") as tar:
            for fname, text in files.items():
                data = text.encode()
                info = tarfile.TarInfo(fname)
                info.size, info.mtime = len(data), int(time.time())
                tar.addfile(info, io.BytesIO(data))
    print(f"wrote {len(files)} traces{' to ' + a.out if a.out else ''}; failed: {failed or 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
