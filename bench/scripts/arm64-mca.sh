#!/usr/bin/env bash
# arm64-mca.sh: estimated cycles per byte of the arm64 ChaCha20 keystream
# loops (chachakit's NEON4x1 and NEON6x2, the batches' 4-lane NEON pass
# laneBlocksNEON ("Lanes", 256 bytes per pass), golang.org/x/crypto's 4-block NEON
# loop) from llvm-mca, and guest instructions per byte under QEMU.
#
# Usage: bench/scripts/arm64-mca.sh [-cpus "cortex-a53 ..."] [-no-icount]
#                                   [-icount-cpu MODEL] [-keep DIR]
#
#   -cpus        llvm-mca -mcpu models (default: cortex-a53 cortex-a55
#                cortex-a57 cortex-a72 neoverse-n1 neoverse-v1 thunderx2t99)
#   -no-icount   skip the QEMU instruction counts
#   -icount-cpu  QEMU -cpu model for the counts (default cortex-a72; the
#                model changes the dispatcher's default, not the paths)
#   -keep DIR    keep the test binary, the extracted loops and llvm-mca's
#                reports in DIR
#
# Needs llvm-mca-19 and llvm-objdump-19 (apt-get install -y llvm-19) and, for
# the counts, qemu-aarch64-static and bench/scripts/qemu-icount.sh.
#
# Method (see "Reading the estimates" in bench/README.md): the arm64 test binary of
# internal/chacha20core (which links x/crypto's chacha20) is disassembled with
# llvm-objdump; in each keystream function the outer loop is the widest
# backward branch and the round loops are the backward branches inside it.
# Each round loop and the rest of the outer loop (set-up, final addition,
# transposition, XOR, stores) go to llvm-mca separately (200 iterations);
# cycles per outer iteration = sum(round loop cycles x trips) + rest cycles,
# divided by the bytes per iteration (NEON4x1 320, NEON6x2 512, x/crypto
# 256). "bound" is the same sum over llvm-mca's Block RThroughput (the
# resource bound, the figure to read on the in-order A53 and A55). The
# portable block function (blockGeneric, 64 bytes, its 10-trip loop plus the
# rest of the function) is estimated the same way, without its XOR.
# These are model estimates, not measurements.
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 2; }

cpus="cortex-a53 cortex-a55 cortex-a57 cortex-a72 neoverse-n1 neoverse-v1 thunderx2t99"
icount=1
icpu=cortex-a72
keep=""
while [[ $# -gt 0 ]]; do
	case "$1" in
	-cpus) cpus=$2; shift 2 ;;
	-no-icount) icount=0; shift ;;
	-icount-cpu) icpu=$2; shift 2 ;;
	-keep) keep=$2; shift 2 ;;
	*) usage ;;
	esac
done

root=$(cd "$(dirname "$0")/../.." && pwd)
for tool in llvm-mca-19 llvm-objdump-19 python3; do
	command -v "$tool" >/dev/null || { echo "arm64-mca.sh: $tool not found (apt-get install -y llvm-19)" >&2; exit 1; }
done

if [[ -n "$keep" ]]; then
	work=$keep
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

(cd "$root" && GOARCH=arm64 GOOS=linux CGO_ENABLED=0 go test -c -o "$work/cc.test" ./internal/chacha20core)

pkg=github.com/chachakit/chachakit/internal/chacha20core
# name|symbol|bytes per outer iteration|trips of each round loop
funcs=(
	"NEON4x1|$pkg.xorBlocksNEON4x1.abi0|320|10"
	"NEON6x2|$pkg.xorBlocksNEON6x2.abi0|512|5,5"
	"Lanes|$pkg.laneBlocksNEON.abi0|256|10"
	"xcrypto|golang.org/x/crypto/chacha20.xorKeyStreamVX.abi0|256|10"
	"Go-block|$pkg.blockGeneric|64|10"
)

# Split each function into llvm-mca inputs: NAME.loopK.s and NAME.rest.s.
# blockGeneric is inlined into xorBlocksGeneric since the portable block
# became the loop body: without the symbol, its column and the short-input
# table are left out.
have=()
for f in "${funcs[@]}"; do
	IFS='|' read -r name sym bytes trips <<<"$f"
	if ! go tool nm "$work/cc.test" | awk -v s="$sym" '$3 == s { found = 1 } END { exit !found }'; then
		echo "arm64-mca.sh: $sym not in the binary (inlined): $name left out" >&2
		continue
	fi
	have+=("$f")
	llvm-objdump-19 -d --no-show-raw-insn --disassemble-symbols="$sym" "$work/cc.test" >"$work/$name.dis"
	python3 "$root/bench/scripts/split-loops.py" "$work/$name.dis" "$work/$name" "$trips"
done
funcs=("${have[@]}")

# mca CPU FILE: print "cycles-per-iteration block-rthroughput".
mca() {
	llvm-mca-19 -mtriple=aarch64 -mcpu="$1" -iterations=200 "$2" >"$2.$1.mca" 2>&1 ||
		{ cat "$2.$1.mca" >&2; exit 1; }
	awk '/^Iterations:/ { it = $2 } /^Total Cycles:/ { c = $3 } /^Block RThroughput:/ { rt = $3 }
		END { printf "%.2f %.2f\n", c / it, rt }' "$2.$1.mca"
}

echo "llvm-mca-19 estimates, cycles per byte (est = scheduled, bound = resource bound):"
printf '%-14s' "mcpu"
for f in "${funcs[@]}"; do printf ' %18s' "${f%%|*}"; done
printf ' %9s %9s %9s\n' "4x1/xc" "6x2/xc" "4x1/6x2"
for cpu in $cpus; do
	printf '%-14s' "$cpu"
	vals=()
	for f in "${funcs[@]}"; do
		IFS='|' read -r name sym bytes trips <<<"$f"
		IFS=, read -r -a tr <<<"$trips"
		est=0 bound=0
		for k in "${!tr[@]}"; do
			read -r c rt < <(mca "$cpu" "$work/$name.loop$k.s")
			est=$(awk -v a="$est" -v c="$c" -v n="${tr[$k]}" 'BEGIN { print a + c * n }')
			bound=$(awk -v a="$bound" -v c="$rt" -v n="${tr[$k]}" 'BEGIN { print a + c * n }')
		done
		read -r c rt < <(mca "$cpu" "$work/$name.rest.s")
		est=$(awk -v a="$est" -v c="$c" -v b="$bytes" 'BEGIN { printf "%.2f", (a + c) / b }')
		bound=$(awk -v a="$bound" -v c="$rt" -v b="$bytes" 'BEGIN { printf "%.2f", (a + c) / b }')
		vals+=("$est" "$bound")
		printf ' %8s (b %5s)' "$est" "$bound"
	done
	# Ratios on the scheduled estimate, then (in brackets) on the bound.
	awk -v a="${vals[0]}" -v b="${vals[2]}" -v x="${vals[4]}" -v ab="${vals[1]}" -v bb="${vals[3]}" -v xb="${vals[5]}" \
		'BEGIN { printf " %4.2f[%4.2f] %4.2f[%4.2f] %4.2f[%4.2f]\n", a / x, ab / xb, b / x, bb / xb, a / b, ab / bb }'
done
[[ ! -f $work/Go-block.rest.s ]] || echo "(Go-block: blockGeneric alone, 64 bytes per call, without its XOR and call overhead.)"
echo "Per iteration: NEON4x1 = 320 bytes, NEON6x2 = 512, xcrypto = 256; cycles of a whole"
echo "iteration = bytes x cycles/byte."

# Short inputs: N blocks through the portable code (N x blockGeneric, XOR
# not counted) against one NEON4x1 iteration (which a 1..4-block batch costs
# in full), scheduled estimate [bound], cycles.
if [[ -f $work/Go-block.rest.s ]]; then
echo
echo "Short inputs, estimated cycles: Go = N x blockGeneric (XOR not counted), 4x1 = one iteration:"
printf '%-14s' "mcpu"
for n in 1 2 3 4; do printf ' %22s' "$((64 * n)) B: Go / 4x1"; done
echo
for cpu in $cpus; do
	printf '%-14s' "$cpu"
	read -r gl grt < <(mca "$cpu" "$work/Go-block.loop0.s")
	read -r gr grrt < <(mca "$cpu" "$work/Go-block.rest.s")
	read -r fl frt < <(mca "$cpu" "$work/NEON4x1.loop0.s")
	read -r fr frrt < <(mca "$cpu" "$work/NEON4x1.rest.s")
	for n in 1 2 3 4; do
		awk -v n="$n" -v gl="$gl" -v gr="$gr" -v fl="$fl" -v fr="$fr" -v grt="$grt" -v grrt="$grrt" -v frt="$frt" -v frrt="$frrt" \
			'BEGIN { printf " %5.0f/%5.0f[%4.0f/%4.0f]", n * (gl * 10 + gr), fl * 10 + fr, n * (grt * 10 + grrt), frt * 10 + frrt }'
	done
	echo
done
fi

[[ $icount == 1 ]] || exit 0

# Guest instructions per byte under QEMU, per path and size: XORBlocks in
# place (chachakit: chacha20core and xorbytes) and x/crypto's public
# XORKeyStream on one cipher (its chacha20 package, which keeps the unused
# keystream of a 256-byte batch for the next call: below 256 bytes its
# figure is an average over calls). The runtime (memmove, memclr) is left
# out: the scheduler calls it too, which makes the counts noisy.
icount_sh=$root/bench/scripts/qemu-icount.sh
if [[ ! -x $icount_sh ]] && [[ ! -f $icount_sh ]]; then
	echo "arm64-mca.sh: $icount_sh not found; skipping instruction counts" >&2
	exit 0
fi
sym='^(github\.com/chachakit/chachakit/(internal/chacha20core\.(XORBlocks|xorBlocks|blockGeneric)|internal/xorbytes\.)|golang\.org/x/crypto/chacha20\.|crypto/internal/fips140/subtle\.)'
echo
echo "Guest instructions per byte under qemu-aarch64 -cpu $icpu (XORBlocks in place; x/crypto: Cipher.XORKeyStream):"
printf '%-8s' "bytes"
impls="xcrypto Go NEON4x1 NEON6x2 default"
for i in $impls; do printf ' %10s' "$i"; done
echo
for size in 64 128 192 256 320 384 512 1024 16384; do
	printf '%-8s' "$size"
	for i in $impls; do
		out=$(bash "$icount_sh" -arch arm64 -cpu "$icpu" -bin "$work/cc.test" -sym "$sym" -ops 3 -bytes "$size" -- \
			-test.run='^$' -neonicount -test.bench="^BenchmarkNEONKeystream\$/^size=$size\$/^impl=$i\$" 2>/dev/null) || out="- - ? ?"
		read -r _ _ perbyte _ <<<"$out"
		printf ' %10s' "$perbyte"
	done
	echo
done
