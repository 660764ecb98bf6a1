#!/usr/bin/env bash
# Bounded fuzzing: each cargo-fuzz target in fuzz/ for SECONDS (default 60) seconds, on a
# nightly toolchain; skipped with a printed line when none is installed (a failure under
# CI=true). Installs cargo-fuzz when missing. Seeds: fuzz/seeds/<target> (past findings; for the parser, scenarios/ too),
# read before the run starts; the working corpora
# (fuzz/corpus) and crash inputs (fuzz/artifacts) stay out of git.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
if ! rustup toolchain list | grep -q nightly; then
  # In CI a missing nightly is a failure: a fuzz step that skips itself proves nothing.
  if [[ ${CI:-} == true ]]; then
    echo "fuzz: no nightly toolchain, and CI=true: scripts/setup.sh should have installed it" >&2
    exit 1
  fi
  echo "fuzz: skipped, no nightly toolchain (rustup toolchain install nightly)"
  exit 0
fi
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
# No sanitizer: the project's crates forbid unsafe code, and without ASan the build and each
# run are about twice as fast; panics, hangs (-timeout) and out-of-memory still stop the run.
cargo +nightly fuzz build -s none
for target in scenario core buoyancy sphere; do
  mkdir -p "fuzz/corpus/$target"
  extra=()
  [[ -d fuzz/seeds/$target ]] && extra+=("fuzz/seeds/$target")
  [[ $target == scenario ]] && extra+=(scenarios)
  echo "== fuzz $target (${seconds} s)"
  marker=$(mktemp)
  status=0
  cargo +nightly fuzz run -s none "$target" "fuzz/corpus/$target" "${extra[@]}" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 2>&1 |
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done|SUMMARY)|panicked|ERROR|Test unit written' ||
    status=${PIPESTATUS[0]}
  if ((status != 0)); then
    # The finding itself, so that a CI log alone reproduces it (`base64 -d > input`).
    find "fuzz/artifacts/$target" -type f -newer "$marker" 2>/dev/null | while read -r finding; do
      echo "== $finding, base64:"
      base64 -w 0 "$finding"
      echo
    done
    rm -f "$marker"
    exit "$status"
  fi
  rm -f "$marker"
done
