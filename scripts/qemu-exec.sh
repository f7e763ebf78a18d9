#!/usr/bin/env bash
# qemu-exec.sh: run a (Go test) binary under QEMU user-mode emulation.
#
# Usage: qemu-exec.sh BINARY [ARGS...]
#   e.g. GOARCH=arm64 QEMU_CPU=cortex-a72 go test -exec "$PWD/scripts/qemu-exec.sh" ./...
#
# Environment:
#   GOARCH     architecture of BINARY: arm64, loong64, riscv64, amd64, arm,
#              ppc64le, ppc64 or s390x.
#              If unset, it is read from BINARY's ELF header.
#   QEMU_CPU   CPU model passed as "-cpu" (see "qemu-aarch64-static -cpu help").
#              If empty, QEMU's default model is used.
#
# The environment is passed through to BINARY (QEMU user mode does that by
# default), so test knobs like CHACHAKIT_STRICT reach the tests. The
# working directory is unchanged.
set -euo pipefail

if [[ $# -lt 1 ]]; then
	echo "usage: qemu-exec.sh BINARY [ARGS...]" >&2
	exit 2
fi
bin=$1
shift

arch=${GOARCH:-}
if [[ -z "$arch" ]]; then
	# ELF e_machine: 2 bytes at offset 18 (little-endian for all targets here).
	machine=$(od -An -tu2 -j18 -N2 "$bin" 2>/dev/null | tr -d ' ') || true
	case "$machine" in
	183) arch=arm64 ;;
	258) arch=loong64 ;;
	243) arch=riscv64 ;;
	62) arch=amd64 ;;
	*)
		echo "qemu-exec.sh: GOARCH unset and cannot identify ELF machine of $bin (e_machine=${machine:-?})" >&2
		exit 2
		;;
	esac
fi

case "$arch" in
arm64) qemu=qemu-aarch64-static ;;
loong64) qemu=qemu-loongarch64-static ;;
riscv64) qemu=qemu-riscv64-static ;;
amd64) qemu=qemu-x86_64-static ;;
arm) qemu=qemu-arm-static ;;
ppc64le) qemu=qemu-ppc64le-static ;;
ppc64) qemu=qemu-ppc64-static ;;
s390x) qemu=qemu-s390x-static ;;
*)
	echo "qemu-exec.sh: unsupported GOARCH=$arch" >&2
	exit 2
	;;
esac

if ! command -v "$qemu" >/dev/null 2>&1; then
	echo "qemu-exec.sh: $qemu not found; run scripts/install-qemu.sh" >&2
	exit 127
fi

cpu=()
if [[ -n "${QEMU_CPU:-}" ]]; then
	cpu=(-cpu "$QEMU_CPU")
else
	# QEMU itself reads QEMU_CPU and rejects an empty value.
	unset QEMU_CPU
fi
exec "$qemu" "${cpu[@]}" "$bin" "$@"
