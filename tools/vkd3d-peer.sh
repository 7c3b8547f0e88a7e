#!/usr/bin/env bash
# Builds a vkd3d-shader that reads DXIL, for the bench's in-process peer (issue 17, bench/peer.ts,
# docs/benchmarks.md). Debian's vkd3d-shader is 1.2, which reads only DXBC; the DXIL targets are
# against vkd3d-shader's own DXIL to SPIR-V, so the bench builds its harness against the library
# this installs, where IRIDIA_VKD3D_PREFIX names its prefix.
#
#   tools/vkd3d-peer.sh SOURCE PREFIX
#
# SOURCE: a checkout of vkd3d (https://gitlab.winehq.org/wine/vkd3d, a release tag from vkd3d-1.14
# on). PREFIX: where it is installed (include/vkd3d and lib). It needs, from Debian: autoconf
# automake libtool bison flex pkg-config make gcc gobjc spirv-headers libvulkan-dev mingw-w64-tools
# (the last for widl, which turns vkd3d's .idl headers into C). vkd3d-shader 1.14 compiles DXIL only
# when built with -DVKD3D_SHADER_UNSUPPORTED_DXIL, which this passes.
#
# Then: IRIDIA_VKD3D_PREFIX=PREFIX IRIDIA_SHARED=../shared npm run bench -- dxil lift
set -euo pipefail
if [ $# -ne 2 ]; then
  echo 'usage: tools/vkd3d-peer.sh SOURCE PREFIX' >&2
  exit 2
fi
src=$(cd "$1" && pwd)
prefix=$2
widl=$(command -v widl || command -v x86_64-w64-mingw32-widl || true)
if [ -z "$widl" ]; then
  echo 'tools/vkd3d-peer.sh: no widl (apt-get install mingw-w64-tools)' >&2
  exit 1
fi
cd "$src"
[ -x configure ] || ./autogen.sh
# --with-metal is left to its test: the configure script defines its Objective-C conditional only there.
./configure --prefix="$prefix" --disable-tests --without-ncurses --without-xcb --without-opengl \
  WIDL="$widl" CPPFLAGS=-DVKD3D_SHADER_UNSUPPORTED_DXIL CFLAGS=-O2
make -j"$(nproc)"
make install
LD_LIBRARY_PATH="$prefix/lib" "$prefix/bin/vkd3d-compiler" --version
LD_LIBRARY_PATH="$prefix/lib" "$prefix/bin/vkd3d-compiler" --print-source-types | grep -q dxbc-dxil ||
  { echo 'tools/vkd3d-peer.sh: the build does not list dxbc-dxil' >&2; exit 1; }
echo "tools/vkd3d-peer.sh: installed in $prefix; run the bench with IRIDIA_VKD3D_PREFIX=$prefix"
