#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian machine: the packages listed in
# scripts/debian-packages.txt (only those missing), then fetches the crates. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v cargo >/dev/null || { echo "setup: cargo not found; install Rust first" >&2; exit 1; }

missing=()
while read -r pkg; do
  [[ -z $pkg || $pkg == \#* ]] && continue
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done < scripts/debian-packages.txt
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
fi
# The fuzz targets (scripts/fuzz.sh) build on a nightly toolchain; the tests do not need it, so a
# failed install is reported here and is a failure only where fuzzing runs (CI).
if command -v rustup >/dev/null && ! rustup toolchain list | grep -q nightly; then
  echo "setup: installing the nightly toolchain for the fuzz targets"
  rustup toolchain install nightly --profile minimal ||
    echo "setup: could not install nightly; scripts/fuzz.sh will skip (and fail under CI=true)" >&2
fi
cargo fetch --locked
# The downstream games (scripts/downstream.sh) take the project's lock and add what their own
# features need (the Bevy game: Bevy's default features); fetch those too, for --offline.
trap 'rm -f scripts/downstream/*/Cargo.lock' EXIT
for dir in scripts/downstream/*/; do
  cp Cargo.lock "$dir/Cargo.lock"
  (cd "$dir" && cargo fetch --quiet)
  rm -f "$dir/Cargo.lock"
done
