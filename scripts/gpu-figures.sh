#!/bin/bash
# Real-GPU figures for docs/benchmarks.md: one prepared run (device minutes are scarce).
# Runs: `cargo build --release -p water-cli --bin water`, then `bash scripts/gpu-figures.sh` on the
# machine with the GPU; the JSON lines land in $OUT/bench.jsonl (default gpu-figures/).
set -u
# Where the machine has no Vulkan loader installed, the .deb files of libvulkan1 in .gl/ are unpacked.
if [ -d .gl ]; then for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; fi
W=${WATER_BIN:-target/release/water}
OUT=${OUT:-gpu-figures}; mkdir -p "$OUT"
J=$OUT/bench.jsonl
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
run() { log "$*"; timeout 60 "$W" "$@" 2>>"$OUT/log.txt" | tee -a "$J"; }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.memory,driver_version --format=csv | tee "$OUT/gpu.txt"
ldconfig -p | grep -c libvulkan | tee -a "$OUT/gpu.txt"
# The card's copy bandwidth, read + written bytes, as the roofline's denominator.
python3 - <<'PY' 2>&1 | tee -a "$OUT/gpu.txt"
import torch, time
x = torch.empty(2**31 // 4 * 2, dtype=torch.float32, device="cuda"); y = torch.empty_like(x)
for _ in range(3): y.copy_(x)
torch.cuda.synchronize(); t = time.perf_counter()
for _ in range(20): y.copy_(x)
torch.cuda.synchronize(); dt = (time.perf_counter() - t) / 20
print(f"copy_bandwidth_bytes_per_s={2 * x.numel() * 4 / dt:.4e}")
PY
if ! "$W" bench grid --backend gpu --size 256 --steps 10 >/dev/null 2>&1; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  log "default Vulkan loader found no adapter; VK_DRIVER_FILES set"
fi
for n in 1024 2048 4096; do
  s=$((4096 * 4096 * 400 / (n * n))); [ $s -gt 4000 ] && s=4000
  run bench grid --backend gpu --size $n --steps $s
  run bench grid --backend gpu --size $n --steps $s --storage f16
  run bench grid --backend gpu --size $n --steps $s --mode split
  run bench grid --backend gpu-fragment --size $n --steps $s
done
for n in 512 1024 2048; do
  run bench grid --model dispersive --backend gpu --size $n --steps 400
done
for bw in current one-step-late; do
  for n in 512 1024; do
    run bench scene --backend gpu --size $n --bodies 100 --steps 1000 --warmup 50 --body-water $bw
  done
  run bench scene --backend gpu-fragment --size 1024 --bodies 100 --steps 1000 --warmup 50 --body-water $bw
done
run bench scene --backend cpu --size 1024 --bodies 100 --steps 300 --warmup 20
run bench grid --model dispersive --backend cpu --size 1024 --steps 50 --threads 16
nproc >> "$OUT/gpu.txt"; lscpu | grep "Model name" >> "$OUT/gpu.txt"
log done
