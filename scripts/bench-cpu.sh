#!/usr/bin/env bash
# CPU grid benchmark against the C peer, in one run: for each configuration the peer and
# `water bench grid` (multi-step and single-step) run alternately REPEATS times; the table
# shows medians of Gcell/s and the ratios to the peer. Usage: scripts/bench-cpu.sh [REPEATS]
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-5}
peer=../shared/peers/run-peer.sh
[[ -x $peer || -f $peer ]] || { echo "bench-cpu: $peer not found (../shared must sit beside the repo)" >&2; exit 1; }
cargo build --release --locked -p water-cli >&2
water=target/release/water

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
gcells_json() { grep -o '"gcells_per_s":[0-9.e+-]*' | cut -d: -f2; }
gcells_peer() { grep -o 'gcells_per_s=[0-9.e+-]*' | cut -d= -f2; }

echo "| size | steps | threads | C peer Gcell/s | water multi-step | ratio | water single-step | ratio |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for config in "256 20000 1" "1024 1000 2" "4096 64 2" "1024 1000 1" "4096 64 1"; do
  read -r size steps threads <<<"$config"
  p=() m=() s=()
  for ((i = 0; i < repeats; i++)); do
    p+=("$(bash "$peer" "$size" "$steps" "$threads" | gcells_peer)")
    m+=("$("$water" bench grid --size "$size" --steps "$steps" --threads "$threads" | gcells_json)")
    s+=("$("$water" bench grid --size "$size" --steps "$steps" --threads "$threads" --single-step | gcells_json)")
  done
  pm=$(printf '%s\n' "${p[@]}" | median)
  mm=$(printf '%s\n' "${m[@]}" | median)
  sm=$(printf '%s\n' "${s[@]}" | median)
  awk -v n="$size" -v st="$steps" -v t="$threads" -v p="$pm" -v m="$mm" -v s="$sm" \
    'BEGIN {printf "| %s² | %s | %s | %.2f | %.2f | %.2fx | %.2f | %.2fx |\n", n, st, t, p, m, m/p, s, s/p}'
done
