#!/usr/bin/env bash
# qemu-icount.sh: count the guest instructions that a (Go test) binary
# executes inside chosen functions, under QEMU user-mode emulation.
#
# Usage:
#   qemu-icount.sh -arch ARCH [-cpu CPU] -bin BINARY -sym REGEX
#                  [-ops N [-bytes B]] [-log FILE] -- ARGS...
#
#   -arch   arm64, loong64, riscv64, amd64, ppc64le, ppc64, s390x, arm or 386 (selects
#           the qemu user-mode emulator)
#   -cpu    QEMU CPU model (la464, cortex-a72, rv64, rva23u64, ...)
#   -bin    the binary; nothing is built (use `GOARCH=... go test -c`)
#   -sym    extended regex over the symbol names of `go tool nm`; every
#           text symbol that matches is an address range that is counted
#           (e.g. '^crypto/internal/fips140/subtle\.(XORBytes|xorBytes)')
#   -ops N  per-operation mode (N >= 2): ARGS must run one benchmark that
#           calls the functions once per iteration. The binary runs with
#           -test.benchtime=1x and with -test.benchtime=Nx; the testing
#           package runs one iteration first in both, so the second run
#           does N more operations and the first is the baseline holding
#           everything else (start-up, set-up, the first call). Prints the
#           difference divided by N, per operation (and per byte with
#           -bytes B, the bytes per operation). A disturbed run (see
#           below) only adds instructions, so when the difference is not a
#           multiple of N the pair is rerun, up to three times, keeping the
#           smallest counts.
#   -log    keep the last exec log in FILE (default: a temporary file)
#
# Without -ops it prints the total count of one run of ARGS.
#
# How: `go tool nm -size` gives each symbol's address and size; qemu runs
# with -one-insn-per-tb -d exec,nochain -dfilter RANGES, so it logs one
# "Trace" line per executed guest instruction inside the ranges, which are
# counted. GOMAXPROCS=1, GOGC=off and GODEBUG=asyncpreemptoff=1 keep the
# runs repeatable (GODEBUG from the environment, e.g. cpu.lasx=off, is
# kept). One disturbance remains: the scheduler asks a goroutine that ran
# 10 ms without rescheduling to stop at its next function prologue, which
# then runs the measured function's stack-growth path (~24 instructions on
# loong64). Benchmarks meant for counting should yield between operations
# (see -icount in internal/xorbytes/xor_test.go). Functions inlined into a caller
# outside the ranges are not counted: check with -gcflags=-m.
#
# Example (loong64, LASX XORBytes, 2048 bytes; each level of -test.bench is
# anchored, or XORBytes would also match XORBytesAlignment):
#   GOARCH=loong64 go test -c -o /tmp/s.test ./internal/xorbytes
#   bench/scripts/qemu-icount.sh -arch loong64 -cpu la464 -bin /tmp/s.test \
#     -sym '^github.com/chachakit/chachakit/internal/xorbytes\.(XORBytes|xorBytes)' \
#     -ops 20 -bytes 2048 -- -test.run='^$' -icount \
#     -test.bench='^BenchmarkXORBytes$/^2048Bytes$/^impl=LASX$'
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 2; }

arch="" cpu="" bin="" sym="" ops="" bytes="" log=""
while [[ $# -gt 0 ]]; do
	case "$1" in
	-arch) arch=$2; shift 2 ;;
	-cpu) cpu=$2; shift 2 ;;
	-bin) bin=$2; shift 2 ;;
	-sym) sym=$2; shift 2 ;;
	-ops) ops=$2; shift 2 ;;
	-bytes) bytes=$2; shift 2 ;;
	-log) log=$2; shift 2 ;;
	--) shift; break ;;
	*) usage ;;
	esac
done
[[ -n "$arch" && -n "$bin" && -n "$sym" ]] || usage
[[ -z "$ops" || "$ops" -ge 2 ]] || usage

case "$arch" in
arm64) qemu=qemu-aarch64-static ;;
loong64) qemu=qemu-loongarch64-static ;;
riscv64) qemu=qemu-riscv64-static ;;
ppc64le) qemu=qemu-ppc64le-static ;;
amd64) qemu=qemu-x86_64-static ;;
ppc64le) qemu=qemu-ppc64le-static ;;
ppc64) qemu=qemu-ppc64-static ;;
s390x) qemu=qemu-s390x-static ;;
arm) qemu=qemu-arm-static ;;
386) qemu=qemu-i386-static ;;
*) echo "qemu-icount.sh: unknown -arch $arch" >&2; exit 2 ;;
esac

# Address ranges START+SIZE of the matching text symbols.
ranges=$(env -u GODEBUG go tool nm -size -sort address "$bin" |
	awk -v re="$sym" '($3 == "T" || $3 == "t") && $4 ~ re && $2 > 0 { printf "%s0x%s+%d", sep, $1, $2; sep = "," }')
if [[ -z "$ranges" ]]; then
	echo "qemu-icount.sh: no text symbol in $bin matches '$sym'" >&2
	exit 1
fi
echo "qemu-icount.sh: counting in $(env -u GODEBUG go tool nm "$bin" | awk -v re="$sym" '($2 == "T" || $2 == "t") && $3 ~ re { print $3 }' | paste -sd' ')" >&2

[[ -n "$log" ]] || { log=$(mktemp); trap 'rm -f "$log"' EXIT; }

# count ARGS...: run the binary once and print the number of traced
# instructions; a run that fails (a benchmark's b.Fatal) fails the script.
count() {
	GOMAXPROCS=1 GOGC=off GODEBUG=${GODEBUG:+$GODEBUG,}asyncpreemptoff=1 "$qemu" ${cpu:+-cpu "$cpu"} -one-insn-per-tb -d exec,nochain \
		-dfilter "$ranges" -D "$log" "$bin" "$@" >/dev/null ||
		{ echo "qemu-icount.sh: $bin $* failed" >&2; exit 1; }
	grep -c '^Trace' "$log" || true
}

if [[ -z "$ops" ]]; then
	count "$@"
	exit
fi
# A run that was disturbed counts extra instructions (never fewer): retry up
# to three times, keeping the smallest counts, until the result is whole.
c1="" cn=""
for attempt in 1 2 3; do
	a=$(count "$@" -test.benchtime=1x)
	b=$(count "$@" -test.benchtime="$ops"x)
	[[ -z "$c1" || $a -lt $c1 ]] && c1=$a
	[[ -z "$cn" || $b -lt $cn ]] && cn=$b
	(((cn - c1) % ops == 0)) && break
done
echo "qemu-icount.sh: $c1 instructions with -test.benchtime=1x, $cn with ${ops}x" >&2
awk -v a="$c1" -v b="$cn" -v n="$ops" -v by="${bytes:-0}" 'BEGIN {
	per = (b - a) / n
	if (per != int(per)) print "qemu-icount.sh: warning: not a whole number after 3 attempts: runs were disturbed" > "/dev/stderr"
	if (by > 0) printf "%.2f instructions/op  %.4f instructions/byte\n", per, per / by
	else printf "%.2f instructions/op\n", per
}'
