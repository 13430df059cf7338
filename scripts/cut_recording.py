#!/usr/bin/env python3
# Copyright 2026 The WorkloadTruth Authors. SPDX-License-Identifier: Apache-2.0
"""Cuts one `workloadtruth record` file into labelled traces, one per workload of a programme.

The GPU programmes (../shared/device/record_real.py, scripts/gpu_workloads.py) log when each
workload ended and how long it ran ("13:37:05.482 lm_pretrain: 40.5 s, 405 rows"); the recorder
ran beside them on the same machine, so its rows between a workload's start and end are that
workload as WorkloadTruth's own NVML reader saw it. Each workload's label is taken from the
programme's own labelled CSV of it in LABELLED_DIR (`<label>__<source>__<workload>[SUFFIX].csv`).

Usage: cut_recording.py RECORDING SCHEDULE LABELLED_DIR OUT_DIR SOURCE [--suffix _85s]
Writes OUT_DIR/<label>__<source>__live_<workload>[SUFFIX].csv and appends rows to
OUT_DIR/MANIFEST.csv (file,label,source).
"""
import argparse, csv, datetime, glob, os, re, sys

LINE = re.compile(r"^(\d\d:\d\d:\d\d\.\d+) (\S+): ([\d.]+) s, \d+ rows$")


def seconds_of_day(hms):
    t = datetime.datetime.strptime(hms, "%H:%M:%S.%f")
    return t.hour * 3600 + t.minute * 60 + t.second + t.microsecond / 1e6


def main():
    ap = argparse.ArgumentParser()
    for name in ("recording", "schedule", "labelled_dir", "out_dir", "source"):
        ap.add_argument(name)
    ap.add_argument("--suffix", default="")
    a = ap.parse_args()

    with open(a.recording, newline="") as f:
        rows = list(csv.reader(f, skipinitialspace=True))
    header, body = rows[0], rows[1:]
    # "2026/12/04 13:35:40.242": the programme's clock is the same machine's, also UTC.
    stamp = [seconds_of_day(r[0].split(" ")[1]) for r in body]
    if any(later < earlier for earlier, later in zip(stamp, stamp[1:])):
        sys.exit(f"{a.recording}: the clock runs back (past midnight?): schedules give times of day only")

    os.makedirs(a.out_dir, exist_ok=True)
    manifest = os.path.join(a.out_dir, "MANIFEST.csv")
    new_manifest = not os.path.exists(manifest)
    with open(a.schedule) as f, open(manifest, "a", newline="") as m:
        out_manifest = csv.writer(m, lineterminator="\n")
        if new_manifest:
            out_manifest.writerow(["file", "label", "source"])
        for line in f:
            hit = LINE.match(line.strip())
            if not hit:
                continue  # the programme's closing lines and notes
            end, workload, duration = seconds_of_day(hit[1]), hit[2], float(hit[3])
            labelled = glob.glob(os.path.join(a.labelled_dir, f"*__*__{workload}{a.suffix}.csv"))
            if len(labelled) != 1:
                sys.exit(f"{a.schedule}: {workload}: expected one labelled trace in {a.labelled_dir}, found {len(labelled)}")
            label = os.path.basename(labelled[0]).split("__")[0]
            picked = [r for r, t in zip(body, stamp) if end - duration <= t <= end]
            if not picked:
                sys.exit(f"{a.recording}: no rows between the start and end of {workload}")
            name = f"{label}__{a.source}__live_{workload}{a.suffix}.csv"
            with open(os.path.join(a.out_dir, name), "w", newline="") as out:
                w = csv.writer(out, lineterminator="\n")
                w.writerow(header)
                w.writerows(picked)
            out_manifest.writerow([name, label, a.source])
            print(f"{name}: {len(picked)} rows")


if __name__ == "__main__":
    main()
