#!/bin/bash
# iridia's WebGPU checks on a machine with a real GPU and no network (a GPU machine lent to a
# session): the tests that run WGSL through Dawn, and Dawn's compile of every module that ../shared's
# containers emit, both on the GPU's own Vulkan driver instead of SwiftShader.
#
# What travels in .gpu/ (ignored by git; made on the developer's machine, same x86-64 and glibc >= 2.34):
#   node.xz       the node binary (xz -c "$(command -v node)" > .gpu/node.xz)
#   nm.tar.xz     node_modules with what the checks load: webgpu (dist/linux-x64 only), tsx, esbuild,
#                 @esbuild/linux-x64
#   debs/         the Vulkan loader and glvnd's libraries, which NVIDIA's Vulkan driver loads (the
#                 device README's recipe: apt-get download libvulkan1 libegl1 libglvnd0 libopengl0
#                 libgl1 libglx0 libgles2), unpacked into / there
#   libvulkan.so.1  a Vulkan loader, used when the machine still has none (Debian's chromium has one)
#   wgsl.jsonl.gz node --import tsx tools/gpu-corpus.ts pack .gpu/wgsl.jsonl.gz
#
# Usage, in the repository root there: bash scripts/device-check.sh OUTDIR [SECONDS_PER_PART]
# Writes OUTDIR/tests.txt, OUTDIR/corpus.txt, OUTDIR/corpus.json and OUTDIR/env.txt; exits non-zero
# when a part fails. The tests run without ../shared (they skip what needs it, as in a fresh clone).
set -u
out=${1:?usage: device-check.sh OUTDIR [SECONDS_PER_PART]}
limit=${2:-240}
mkdir -p "$out" /tmp/iridia-node /tmp/iridia-xdg
xz -dc .gpu/node.xz > /tmp/iridia-node/node && chmod +x /tmp/iridia-node/node || exit 1
[ -d node_modules ] || tar -xJf .gpu/nm.tar.xz || exit 1
export PATH=/tmp/iridia-node:$PATH XDG_RUNTIME_DIR=/tmp/iridia-xdg
for f in .gpu/debs/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
ldconfig
if ! ldconfig -p | grep -q 'libvulkan\.so\.1'; then
  export LD_LIBRARY_PATH=$PWD/.gpu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
# The GPU's own driver: the first Vulkan driver manifest on which Dawn opens an adapter
# (VK_ICD_FILENAMES already set wins: SwiftShader's runs this script elsewhere).
probe() { timeout 60 node --import tsx test/gpu/webgpu-worker.ts < /dev/null 2>&1 | grep -m1 '"ready"'; }
{
  echo "node $(node --version); nproc $(nproc)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
  ldconfig -p | grep -E 'libvulkan|nvidia' | head -8
} > "$out/env.txt"
if [ -z "${VK_ICD_FILENAMES:-}" ]; then
  for icd in /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json \
    /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; do
    [ -f "$icd" ] || continue
    { echo "== $icd"; cat "$icd"; } >> "$out/env.txt"
    hello=$(VK_ICD_FILENAMES=$icd VK_DRIVER_FILES=$icd probe)
    echo "probe: $hello" >> "$out/env.txt"
    case $hello in *'"ready":true'*) export VK_ICD_FILENAMES=$icd VK_DRIVER_FILES=$icd; break ;; esac
    VK_ICD_FILENAMES=$icd VK_DRIVER_FILES=$icd timeout 60 node --input-type=module -e "
      const w = await import('webgpu');
      for (const o of [['backend=vulkan'], ['backend=vulkan', 'adapter=NVIDIA'], ['backend=opengles']]) {
        const a = await w.create(o).requestAdapter().catch((e) => String(e));
        console.log('probe', o.join(' '), a && typeof a === 'object' ? JSON.stringify(a.info) : a);
      }" >> "$out/env.txt" 2>&1
    { echo "== $icd"; VK_ICD_FILENAMES=$icd VK_DRIVER_FILES=$icd VK_LOADER_DEBUG=all \
      timeout 60 node --import tsx test/gpu/webgpu-worker.ts < /dev/null 2>&1 | grep -v '^$' | head -300; } >> "$out/vulkan.txt"
  done
fi
echo "VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-unset} LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-unset}" >> "$out/env.txt"
cat "$out/env.txt"
[ -n "${VK_ICD_FILENAMES:-}" ] || { echo 'no Vulkan driver on which Dawn opens an adapter'; exit 1; }

status=0
# The tests that run WGSL through Dawn (test/helpers/webgpu.ts), four files at a time: each file's
# own compile shards open a device per CPU.
mapfile -t files < <(grep -rl "helpers/webgpu" test --include='*.test.ts' | sort)
timeout "$limit" node --import tsx --test --test-concurrency=4 --test-reporter=spec "${files[@]}" \
  > "$out/tests.txt" 2>&1 || status=1
grep -E '^ℹ (tests|pass|fail|skipped|cancelled|duration_ms)' "$out/tests.txt"
timeout "$limit" node --import tsx tools/gpu-corpus.ts check .gpu/wgsl.jsonl.gz "$out/corpus.json" \
  > "$out/corpus.txt" 2>&1 || status=1
head -c 4000 "$out/corpus.txt"
exit $status
