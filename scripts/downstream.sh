#!/usr/bin/env bash
# Builds what a user builds: the downstream programs in scripts/downstream/, each its own
# workspace outside the project's, with the project's lock file (every crate the project locks
# at the version it is tested with) and its own target folder. What a game's own features add
# (the Bevy game's: Bevy's default features) is not in that lock: it resolves to the newest
# versions scripts/setup.sh fetched. `check` (the default) checks them; `run` also runs each
# once (the windowed Bevy game is built, not run).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mode=${1:-check}
# The lock copied into a game's folder never outlives the script, whatever fails.
trap 'rm -f scripts/downstream/*/Cargo.lock' EXIT
for dir in scripts/downstream/*/; do
  name=$(basename "$dir")
  step=$mode
  # The Bevy game opens a window and runs until it is closed: `run` builds it only.
  [[ $name == bevy-game && $mode == run ]] && step=build
  echo "== downstream: $name ($step)"
  cp Cargo.lock "$dir/Cargo.lock"
  # --offline: every crate comes from what setup.sh fetched.
  (cd "$dir" && CARGO_TARGET_DIR="$root/target/downstream" cargo "$step" --offline --quiet)
  rm -f "$dir/Cargo.lock"
done
