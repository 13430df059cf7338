#!/usr/bin/env python3
# Copyright 2026 The WorkloadTruth Authors. SPDX-License-Identifier: Apache-2.0
"""How the trained classifier reads a GPU's next job, measured on the simulator.

Pairs of jobs of different classes (training then serving or HPC, and the reverse; 300 s each,
an A100, H100 or L4 drawn, polled every second) run one after the other on one GPU with 1, 10
or 60 minutes of `idle/bare` between, written as one nvidia-smi CSV and classified. Counts, per
idle length, the pairs whose first active (not IDLE) window of the second job gets its class,
and that job's active windows right. What the GPU's belief carries over from the first job
(docs/classifier.md, "2026-12-07") shows in the first column.

Usage: scripts/job_changes.py [--build build/default] [--model FILE] [--pairs 20] [--seed 11]
"""
import argparse
import collections
import datetime
import json
import os
import random
import subprocess
import sys
import tempfile

FIRST = {"TRAINING": ["training/pretrain", "training/finetune", "training/lora"],
         "INFERENCE": ["inference/online-poisson", "inference/online-bursty", "inference/offline-batch",
                       "inference/embedding"],
         "HPC": ["hpc/md", "hpc/fft", "hpc/gemm-fp64"]}
ORDERS = [("TRAINING", "INFERENCE"), ("INFERENCE", "TRAINING"), ("TRAINING", "HPC"), ("HPC", "TRAINING")]
GPUS = ["NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3", "NVIDIA L4"]
JOB_S = 300
TIME_FORMAT = "%Y/%m/%d %H:%M:%S.%f"


def record(wt, scenario, seed, seconds, gpu, path):
    """GPU 0's rows of a simulated run (1 s polls) and the CSV header."""
    subprocess.run([wt, "record", "--backend", "sim", "--scenario", scenario, "--seed", str(seed), "--interval", "1",
                    "--duration", str(seconds), "--gpu-model", gpu, "--out", path], check=True, capture_output=True)
    with open(path) as f:
        lines = f.read().splitlines()
    return lines[0], [line for line in lines[1:] if line.split(", ")[1] == "0"]


def shifted(rows, seconds):
    out = []
    for row in rows:
        stamp, rest = row.split(", ", 1)
        t = datetime.datetime.strptime(stamp, TIME_FORMAT) + datetime.timedelta(seconds=seconds)
        out.append(t.strftime(TIME_FORMAT)[:-3] + ", " + rest)
    return out


def at(stamp):
    return datetime.datetime.fromisoformat(stamp).timestamp()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build/default")
    ap.add_argument("--model", help="model file (default: the built-in model)")
    ap.add_argument("--pairs", type=int, default=20, help="pairs per idle length")
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    wt = os.path.join(a.build, "src", "workloadtruth")
    if not os.access(wt, os.X_OK):
        sys.exit(f"build first: {wt}")
    rng = random.Random(a.seed)
    first_right = collections.Counter()
    windows_right = collections.Counter()
    pair = 0
    with tempfile.TemporaryDirectory() as tmp:
        scratch, trace = os.path.join(tmp, "run.csv"), os.path.join(tmp, "pair.csv")
        for idle_s in (60, 600, 3600):
            for k in range(a.pairs):
                classes = ORDERS[k % len(ORDERS)]
                scenarios = [rng.choice(FIRST[c]) for c in classes]
                gpu = rng.choice(GPUS)
                header, one = record(wt, scenarios[0], 1000 + pair, JOB_S, gpu, scratch)
                _, idle = record(wt, "idle/bare", 2000 + pair, idle_s, gpu, scratch)
                _, two = record(wt, scenarios[1], 3000 + pair, JOB_S, gpu, scratch)
                pair += 1
                with open(trace, "w") as f:
                    f.write("\n".join([header] + one + shifted(idle, JOB_S) + shifted(two, JOB_S + idle_s)) + "\n")
                cmd = [wt, "classify", "--json", trace] + (["--model", a.model] if a.model else [])
                windows = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)[
                    "gpus"][0]["windows"]
                # The first job's first sample is at 1 s, so the second starts JOB_S + idle_s - 1 s after it.
                second_starts = at(windows[0]["start"]) + JOB_S + idle_s - 1
                active = [w["workload_type"] for w in windows
                          if at(w["start"]) >= second_starts and w["workload_type"] != "IDLE"]
                if active:
                    first_right[idle_s, active[0] == classes[1]] += 1
                for verdict in active:
                    windows_right[idle_s, verdict == classes[1]] += 1
    print(f"{'idle between':<14}{'first active window of the next job right':>44}{'its active windows right':>28}")
    for idle_s in (60, 600, 3600):
        f_ok, f_all = first_right[idle_s, True], first_right[idle_s, True] + first_right[idle_s, False]
        w_ok, w_all = windows_right[idle_s, True], windows_right[idle_s, True] + windows_right[idle_s, False]
        print(f"{idle_s // 60:>3} min{'':<7}{f'{f_ok} of {f_all}':>44}{f'{w_ok} of {w_all}':>28}")


if __name__ == "__main__":
    main()
