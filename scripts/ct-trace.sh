#!/usr/bin/env bash
# ct-trace.sh: the trace half of the constant-time check (issue 46), for
# the kernels valgrind cannot run (see scripts/ct-valgrind.sh for the rest).
#
# For fixed public inputs (lengths, additional-data length, in place or
# not) and three random secrets (key and plaintext; for Open the ciphertext
# and valid tag they give), the sequence of executed instruction addresses
# through each call must be the same. internal/ct/trace's TestChild runs
# every case between two marker functions:
#   - amd64, natively: TestPtrace single-steps the thread that enters the
#     marker with ptrace, the child's other threads stopped; on an AVX-512
#     machine this covers every AVX-512 and IFMA kernel.
#   - the other architectures under qemu user mode: TestQemu reads qemu's
#     log of executed translation blocks (-d exec,nochain), one row per CPU
#     model that selects another path.
# Each row also runs the planted leaks (a Go kernel, and on amd64 an
# assembly one, with a branch on key bits), which must give more than one
# trace. Every case prints its number of distinct traces (1 to pass).
#
# Usage: scripts/ct-trace.sh [-arch ARCH[,ARCH...]] [-cases REGEX]
#   -arch    rows to run: amd64, arm64, loong64, riscv64, ppc64le, s390x
#            (default: all)
#   -cases   only the cases whose names match REGEX (the planted leaks
#            must match too, or the row fails for want of them)
# Exit status: non-zero if a case gives more than one trace, a planted
# leak gives one, or a row fails to run.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

arches=amd64,arm64,loong64,riscv64,ppc64le,s390x
cases=""
while [[ $# -gt 0 ]]; do
	case $1 in
	-arch) arches=$2; shift 2 ;;
	-cases) cases=$2; shift 2 ;;
	*) echo "ct-trace.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
want() { [[ ",$arches," == *",$1,"* ]]; }

# Rows under qemu: GOARCH, qemu's CPU model, GODEBUG settings for the
# guest. The arm64 models select their paths by MIDR (cortex-a53: the Go
# AEAD layer; neoverse-n1 and -v1: the NEON stitched kernel; neoverse-n2:
# SVE2); la464 runs LASX, and LSX with LASX off; rv64 with and without
# the vector extension. Every row also forces each implementation the
# model can run by name.
rows=(
	"arm64 cortex-a53 -"
	"arm64 neoverse-n1 -"
	"arm64 neoverse-v1 -"
	"arm64 neoverse-n2 -"
	"loong64 la464 -"
	"loong64 la464 cpu.lasx=off"
	"riscv64 rv64 -"
	"riscv64 rv64,v=true,vlen=128 -"
	"ppc64le power9 -"
	"ppc64le power10 -"
	"s390x max -"
)

qemu_for() {
	case $1 in
	arm64) echo qemu-aarch64-static ;;
	loong64) echo qemu-loongarch64-static ;;
	riscv64) echo qemu-riscv64-static ;;
	ppc64le) echo qemu-ppc64le-static ;;
	s390x) echo qemu-s390x-static ;;
	esac
}

if [[ $(go env GOHOSTARCH) != amd64 || $(go env GOHOSTOS) != linux ]]; then
	echo "ct-trace.sh: the tracers run on linux/amd64 only" >&2
	exit 2
fi
need_qemu=0
for a in arm64 loong64 riscv64 ppc64le s390x; do
	if want "$a" && ! command -v "$(qemu_for "$a")" >/dev/null 2>&1; then
		need_qemu=1
	fi
done
if [[ $need_qemu == 1 ]]; then
	echo "ct-trace.sh: installing qemu user mode (scripts/install-qemu.sh)"
	bash scripts/install-qemu.sh
fi

work=$(mktemp -d)
bg=""
cleanup() {
	[[ -n $bg ]] && kill "$bg" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

t0=$(date +%s)
echo "+ building the tracer and the guests"
go test -c -o "$work/trace.test" ./internal/ct/trace
for a in arm64 loong64 riscv64 ppc64le s390x; do
	if want "$a"; then
		GOOS=linux GOARCH=$a CGO_ENABLED=0 go test -c -o "$work/trace-$a.test" ./internal/ct/trace
	fi
done
echo "built in $(($(date +%s) - t0))s"

case_args=()
[[ -n $cases ]] && case_args=(-trace.cases "$cases")
failed=()

# The amd64 row single-steps on one core while the qemu rows run on the
# other; its report is printed after theirs.
if want amd64; then
	(
		cd internal/ct/trace
		t=$(date +%s)
		rc=0
		timeout -k 10s 10m "$work/trace.test" -test.run '^TestPtrace$' -trace.ptrace -test.timeout 10m \
			"${case_args[@]}" >"$work/amd64.log" 2>&1 || rc=$?
		echo "(amd64: $(($(date +%s) - t))s)" >>"$work/amd64.log"
		echo "$rc" >"$work/amd64.rc"
	) &
	bg=$!
fi

for row in "${rows[@]}"; do
	read -r arch cpu godebug <<<"$row"
	want "$arch" || continue
	[[ $godebug == - ]] && godebug=""
	name="$arch $cpu${godebug:+ GODEBUG=$godebug}"
	echo
	echo "=== $name"
	t=$(date +%s)
	if ! (cd internal/ct/trace && timeout -k 10s 10m "$work/trace.test" -test.run '^TestQemu$' -test.timeout 10m \
		-trace.qemu "$(qemu_for "$arch")" -trace.cpu "$cpu" -trace.godebug "$godebug" \
		-trace.guest "$work/trace-$arch.test" -trace.row "$name" "${case_args[@]}"); then
		failed+=("$name")
	fi
	echo "($(($(date +%s) - t))s)"
done

if want amd64; then
	wait "$bg" || true
	bg=""
	echo
	echo "=== amd64 ptrace (natively)"
	cat "$work/amd64.log"
	[[ $(cat "$work/amd64.rc" 2>/dev/null || echo 1) == 0 ]] || failed+=("amd64")
fi

echo
echo "total $(($(date +%s) - t0))s"
if [[ ${#failed[@]} -gt 0 ]]; then
	echo "FAIL: ${failed[*]}"
	exit 1
fi
echo "ok: one trace per case on every row; every planted leak caught"
