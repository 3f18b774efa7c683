#!/usr/bin/env python3
"""ropelab's GPU core against PyTorch on the same GPU, side by side, for N = 2^24 distances.

Both compute score(Δ) = Σ_i Re[c_i·e^{iΔθ_i}] + pass for one q, k (head 128, θ = 10^4, the
interleaved layout), Δ = 0 .. N−1, the query at m = N − 1:
  * ropelab: `ropelab scores --device gpu --repeat R --format csv` (its compute_ms: kernel plus
    the copy back into host memory, from a JSON run);
  * PyTorch, complex128: exp(1j·Δ·θ) @ c in chunks — the exact closed form, the only PyTorch form
    that meets 1e-5·Σ|c|, and the reference both errors are measured against;
  * PyTorch, float32 as HF does it: cos/sin tables of float32 angles, q and k rotated and dotted.
Prints both times, the ratio, and max|error| / Σ|c| of ropelab and of the float32 form.
Without torch (or without CUDA) it says so and prints ropelab's numbers alone.
Usage: python3 bench/torch_closed_form.py [--bin build/ropelab] [--n 16777216] [--repeat 20]
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "build", "ropelab"))
    parser.add_argument("--n", type=int, default=1 << 24)
    parser.add_argument("--repeat", type=int, default=20)
    a = parser.parse_args()

    head = 128
    rng = random.Random(2024)
    q = [rng.gauss(0, 1) for _ in range(head)]
    k = [rng.gauss(0, 1) for _ in range(head)]
    folder = tempfile.mkdtemp()
    q_path, k_path = os.path.join(folder, "q.txt"), os.path.join(folder, "k.txt")
    with open(q_path, "w") as f:
        f.write(",".join(repr(x) for x in q))
    with open(k_path, "w") as f:
        f.write(",".join(repr(x) for x in k))

    # ropelab: the numbers (one CSV run) and the times (--repeat, JSON with the curve).
    base = [a.bin, "scores", "--device", "gpu", "--max-distance", str(a.n), "--q", "@" + q_path, "--k", "@" + k_path]
    run = subprocess.run(base + ["--repeat", str(a.repeat), "--format", "json"], check=True, capture_output=True)
    lab = json.loads(run.stdout)
    print(json.dumps({"ropelab": {key: lab[key] for key in ("device", "kernel", "compute_ms", "kernel_ms", "transfer_ms") if key in lab},
                      "n": a.n}))
    try:
        import torch
    except ImportError:
        print("torch is not installed: ropelab's numbers alone")
        return
    if not torch.cuda.is_available():
        print("torch has no CUDA device: ropelab's numbers alone")
        return
    dev = torch.device("cuda")
    inv_freq = torch.tensor([10000.0 ** (-2.0 * i / head) for i in range(head // 2)], dtype=torch.float64, device=dev)
    qt = torch.tensor(q, dtype=torch.float64, device=dev)
    kt = torch.tensor(k, dtype=torch.float64, device=dev)
    qc = torch.complex(qt[0::2], qt[1::2])
    kc = torch.complex(kt[0::2], kt[1::2])
    c = qc * kc.conj()  # Re[c·e^{iΔθ}] = q_m · k_{m−Δ} for the interleaved layout
    chunk = 1 << 21

    def closed_form():
        out = torch.empty(a.n, dtype=torch.float64, device=dev)
        for start in range(0, a.n, chunk):
            delta = torch.arange(start, min(a.n, start + chunk), dtype=torch.float64, device=dev)
            out[start:start + delta.numel()] = (torch.exp(1j * torch.outer(delta, inv_freq)) @ c).real
        return out

    m = a.n - 1
    inv32 = inv_freq.float()

    def hf_float32():
        positions = torch.arange(a.n, dtype=torch.float32, device=dev)
        angles = torch.outer(positions, inv32)
        cos, sin = angles.cos(), angles.sin()
        q32, k32 = qt.float(), kt.float()
        qr = torch.stack([q32[0::2] * cos[m] - q32[1::2] * sin[m], q32[0::2] * sin[m] + q32[1::2] * cos[m]], -1).flatten()
        keys = m - torch.arange(a.n, device=dev)  # Δ = 0 .. N−1
        kr_even = k32[0::2] * cos[keys] - k32[1::2] * sin[keys]
        kr_odd = k32[0::2] * sin[keys] + k32[1::2] * cos[keys]
        return kr_even @ qr[0::2] + kr_odd @ qr[1::2]

    def timed(fn):
        fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(a.repeat):
            start = time.perf_counter()
            result = fn()
            torch.cuda.synchronize()
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times), result

    exact_ms, exact = timed(closed_form)
    f32_ms, f32 = timed(hf_float32)
    l1 = c.abs().sum().item()
    shown = torch.tensor(lab["score"], dtype=torch.float64, device=dev)
    ropelab_error = (shown - exact).abs().max().item() / l1
    f32_error = (f32.double() - exact).abs().max().item() / l1
    print(json.dumps({
        "torch_complex128_ms": exact_ms, "torch_float32_hf_ms": f32_ms, "ropelab_compute_ms": lab["compute_ms"],
        "speedup_vs_complex128": exact_ms / lab["compute_ms"],
        "ropelab_error_over_l1": ropelab_error, "torch_float32_error_over_l1": f32_error,
        "gpu": torch.cuda.get_device_name(0)}))


if __name__ == "__main__":
    sys.exit(main())
