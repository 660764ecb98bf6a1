#!/usr/bin/env bash
# Sets up and runs every test of the workspace (unit, integration and doc tests), in release
# mode because the physics tests step grids 10^5 times.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo test --workspace --release --locked "$@"
