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
cargo test --workspace --release --locked "$@"
# The rapier adapter is behind a feature of water-buoyancy, so the workspace run leaves it out.
cargo test -p water-buoyancy --features rapier --release --locked --test rapier "$@"
