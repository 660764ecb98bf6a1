#!/usr/bin/env bash
# The main job: sets up, builds, and runs the built-in harbour scenario headless on the CPU,
# writing out/harbour/height.npy, height.png and summary.json and printing a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --locked -p water-cli
target/release/water run --builtin harbour --out out/harbour "$@"
