#!/usr/bin/env bash
# CPU grid benchmark against the C peer, in one run: for each configuration the peer and
# `water bench grid` (multi-step and single-step) run alternately REPEATS times; the tables
# show medians of Gcell/s, the ratios to the peer, and for 4096² the ratio to the memory roofline
# (`water bench roofline`: read-2/write-1 bandwidth / 12 bytes per cell) measured in the same
# run. A second table runs split and classic mode the same way (the peer is signed f32).
# Usage: scripts/bench-cpu.sh [REPEATS]
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

roofline_json() { grep -o '"roofline_gcells_per_s":[0-9.e+-]*' | cut -d: -f2; }

table() {
  local mode=$1
  shift
  echo "| mode | size | steps | threads | C peer Gcell/s | water multi-step | ratio | water single-step | ratio | roofline Gcell/s | multi-step / roofline |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for config in "$@"; do
    read -r size steps threads <<<"$config"
    p=() m=() s=() r=()
    for ((i = 0; i < repeats; i++)); do
      p+=("$(bash "$peer" "$size" "$steps" "$threads" | gcells_peer)")
      m+=("$("$water" bench grid --mode "$mode" --size "$size" --steps "$steps" --threads "$threads" | gcells_json)")
      s+=("$("$water" bench grid --mode "$mode" --size "$size" --steps "$steps" --threads "$threads" --single-step | gcells_json)")
      if ((size >= 4096)); then
        r+=("$("$water" bench roofline --size "$size" --threads "$threads" | roofline_json)")
      fi
    done
    pm=$(printf '%s\n' "${p[@]}" | median)
    mm=$(printf '%s\n' "${m[@]}" | median)
    sm=$(printf '%s\n' "${s[@]}" | median)
    rm=0
    ((${#r[@]})) && rm=$(printf '%s\n' "${r[@]}" | median)
    awk -v mode="$mode" -v n="$size" -v st="$steps" -v t="$threads" -v p="$pm" -v m="$mm" -v s="$sm" -v r="$rm" \
      'BEGIN {
         roof = (r > 0) ? sprintf("%.2f | %.2fx", r, m / r) : "- | -";
         printf "| %s | %s² | %s | %s | %.2f | %.2f | %.2fx | %.2f | %.2fx | %s |\n", mode, n, st, t, p, m, m/p, s, s/p, roof
       }'
  done
}

table signed "256 20000 1" "1024 1000 2" "4096 64 2" "1024 1000 1" "4096 64 1"
echo
table split "256 20000 1" "1024 1000 2" "4096 64 2"
echo
table classic "256 20000 1" "1024 1000 2" "4096 64 2"
