#!/usr/bin/env bash
# The main job: sets up, builds, runs the built-in harbour scenario (waves, land), boat-wake
# scenario (floating bodies and their wakes) and beach scenario (a depth map: shoaling and
# refraction) headless on the CPU and on both GPU backends (writing
# out/<scenario>/<backend>/height.npy, height.png, summary.json and, with bodies, bodies.csv),
# compares the GPU results with the CPU reference, and runs the kelvin-wake scenario (dispersive
# water: on the CPU and the compute backend, which the fragment backend does not offer) into
# out/kelvin-wake/{cpu,gpu} and compares them, and the swell scenario (bodies on a JONSWAP sea
# around the grid, with foam) into out/swell/{cpu,gpu}.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --locked -p water-cli
if [[ -z ${XDG_RUNTIME_DIR:-} ]]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  export XDG_RUNTIME_DIR
fi
for scenario in harbour boat-wake beach; do
  for backend in cpu gpu gpu-fragment; do
    target/release/water run --builtin "$scenario" --backend "$backend" \
      --out "out/$scenario/$backend" "$@"
  done
  target/release/water compare --builtin "$scenario" --backends gpu,gpu-fragment
done
for backend in cpu gpu; do
  target/release/water run --builtin kelvin-wake --backend "$backend" \
    --out "out/kelvin-wake/$backend" "$@"
done
target/release/water compare --builtin kelvin-wake --backends gpu
# The swell: a JONSWAP sea around the grid; the bodies float on the sum, height.npy is the sum and
# ocean.npy the sea alone (the sea is the same function on every backend).
for backend in cpu gpu; do
  target/release/water run --builtin swell --backend "$backend" --out "out/swell/$backend" "$@"
done
target/release/water compare --builtin swell --backends gpu
# Sailing: a boat towed 2 km at 10 m/s over the swell, the window and 4 cascades following it
# (cascades run on the CPU only so far).
target/release/water run --builtin sailing --backend cpu --out out/sailing/cpu "$@"
