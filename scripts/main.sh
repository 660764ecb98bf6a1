#!/usr/bin/env bash
# The main job: sets up, builds, runs the built-in harbour scenario headless on the CPU and on
# both GPU backends (writing out/harbour/<backend>/height.npy, height.png and summary.json), and
# compares the GPU results with the CPU reference.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --locked -p water-cli
if [[ -z ${XDG_RUNTIME_DIR:-} ]]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  export XDG_RUNTIME_DIR
fi
for backend in cpu gpu gpu-fragment; do
  target/release/water run --builtin harbour --backend "$backend" --out "out/harbour/$backend" "$@"
done
target/release/water compare --builtin harbour --backends gpu,gpu-fragment
