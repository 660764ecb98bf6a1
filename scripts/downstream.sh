#!/usr/bin/env bash
# Builds what a user builds: the downstream programs in scripts/downstream/, each its own
# workspace outside the project's, with the project's lock file (the same versions the project
# is tested with, plus what a game's own features add) and its own target folder. `check` (the
# default) checks them; `run` also runs each once (the windowed Bevy game is built, not run).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mode=${1:-check}
for dir in scripts/downstream/*/; do
  name=$(basename "$dir")
  step=$mode
  # The Bevy game opens a window and runs until it is closed: `run` builds it only.
  [[ $name == bevy-game && $mode == run ]] && step=build
  echo "== downstream: $name ($step)"
  cp Cargo.lock "$dir/Cargo.lock"
  # --offline: the versions in the lock are the ones setup.sh fetched (scripts/setup.sh also
  # fetched what a game's own features add to the lock: the Bevy game's default features).
  (cd "$dir" && CARGO_TARGET_DIR="$root/target/downstream" cargo "$step" --offline --quiet)
  rm -f "$dir/Cargo.lock"
done
