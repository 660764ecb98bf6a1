#!/usr/bin/env bash
# Builds what a user builds: the downstream programs in scripts/downstream/, each its own
# workspace outside the project's, with the project's lock file (the same versions the project
# is tested with) and its target folder (nothing built twice). `check` (the default) checks
# them; `run` also runs each once.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mode=${1:-check}
for dir in scripts/downstream/*/; do
  name=$(basename "$dir")
  echo "== downstream: $name ($mode)"
  cp Cargo.lock "$dir/Cargo.lock"
  # --offline: the versions in the lock are the ones setup.sh fetched.
  (cd "$dir" && CARGO_TARGET_DIR="$root/target/downstream" cargo "$mode" --offline --quiet)
  rm -f "$dir/Cargo.lock"
done
