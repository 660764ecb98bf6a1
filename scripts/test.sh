#!/usr/bin/env bash
# Sets up and runs every test of the workspace (unit, integration and doc tests), in release
# mode because the physics tests step grids 10^5 times.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The Vulkan loader complains on every adapter probe when this is unset (headless machines).
if [[ -z ${XDG_RUNTIME_DIR:-} ]]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  export XDG_RUNTIME_DIR
fi
# setup.sh just installed Mesa's software Vulkan, so an adapter must be found: a GPU test that
# finds none fails rather than skips (WATER_REQUIRE_GPU=0 to skip them on purpose).
export WATER_REQUIRE_GPU=${WATER_REQUIRE_GPU:-1}
# The optional physics-engine adapters (water-bevy's avian3d, water-buoyancy's rapier3d) are
# features: the one run takes them all, so every dependency (Bevy above all) builds once.
# --no-fail-fast: every crate's tests run even after one fails; the exit status is still non-zero.
cargo test --workspace --release --locked --no-fail-fast --features "$(cat scripts/all-features.txt)" "$@"
