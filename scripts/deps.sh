#!/usr/bin/env bash
# Installs, with apt-get, the tools hdlgen's demo and tests need when they are
# missing: the simulators, Yosys, a C++ compiler for Verilator's models, and the
# host driver's cross-compiler, qemu-arm, tclsh, python3, chromium (the build
# report's rendered-page test) and the iCE40 flow (nextpnr-ice40, icepack).
# Does nothing when
# everything is present. `make deps`, `make demo`, `make test` and .ci/run call it.
#
# `scripts/deps.sh --baselines` (`make baselines-deps`) installs instead what
# only scripts/baselines.py needs: Debian's scikit-learn for the system
# python3 (python3-sklearn). Nothing else in the repository, and no test,
# needs it.
set -euo pipefail

if [ "${1:-}" = "--baselines" ]; then
  if /usr/bin/python3 -c 'import sklearn' >/dev/null 2>&1; then
    exit 0
  fi
  need=(python3-sklearn)
else

# command:package — Debian's package names.
pairs=(
  verilator:verilator
  iverilog:iverilog
  yosys:yosys
  yosys-abc:yosys
  make:make
  g++:g++
  arm-linux-gnueabihf-gcc:gcc-arm-linux-gnueabihf
  qemu-arm:qemu-user
  tclsh:tcl
  python3:python3
  chromium:chromium
  nextpnr-ice40:nextpnr-ice40
  icepack:fpga-icestorm
)
need=()
for pair in "${pairs[@]}"; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
done
# Headers: the C library for Verilator's C++ build and for the ARM target.
[ -f /usr/include/stdio.h ] || need+=(libc6-dev)
[ -f /usr/arm-linux-gnueabihf/include/stdio.h ] || need+=(libc6-dev-armhf-cross)
fi

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
echo "deps: installing ${need[*]} with apt-get" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "deps: missing ${need[*]}; run as root or install them" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${need[@]}"
