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
# The optional physics-engine adapters (water-bevy's avian3d, water-buoyancy's rapier3d) are
# features: the one run takes them all, so every dependency (Bevy above all) builds once.
cargo test --workspace --release --locked --features "$(cat scripts/all-features.txt)" "$@"
