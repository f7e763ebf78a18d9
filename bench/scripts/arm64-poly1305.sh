#!/usr/bin/env bash
# arm64-poly1305.sh: the arm64 Poly1305 (internal/poly1305, paths Scalar64
# and NEON) against golang.org/x/crypto's portable Poly1305: guest
# instructions per byte under QEMU, llvm-mca cycle estimates of the block
# loops, and the resulting estimate for ChaCha20-Poly1305 Seal's main loops.
#
# Usage: bench/scripts/arm64-poly1305.sh [-cpus "cortex-a53 ..."]
#                                        [-icount-cpu MODEL] [-sizes "N ..."]
#                                        [-no-icount] [-no-mca] [-no-stitch]
#                                        [-threshold] [-keep DIR]
#
#   -cpus        llvm-mca -mcpu models (default: cortex-a53 cortex-a55
#                cortex-a57 neoverse-n1 neoverse-v1)
#   -icount-cpu  QEMU -cpu model for the counts and the traces (default
#                cortex-a72)
#   -sizes       message sizes for the counts (default: 64 1350 16384)
#   -no-icount   skip the instruction counts
#   -no-mca      skip the llvm-mca estimates (and the prototype)
#   -no-stitch   skip the stitched-loop prototype estimate
#   -threshold   also place the dispatcher's threshold neonMinBytes (see
#                below; takes a few minutes)
#   -keep DIR    keep the test binary, traces, loops and llvm-mca reports
#
# Needs qemu-aarch64-static, python3, and for the estimates llvm-mca-19 and
# llvm-objdump-19 (apt-get install -y llvm-19) and bench/scripts/arm64-mca.sh.
#
# Counts: bench/scripts/qemu-icount.sh on the arm64 test binary of
# internal/poly1305, benchmark BenchmarkPolyCount (one Sum per iteration,
# yielding between operations with -polyicount), over the symbols of
# golang.org/x/crypto/internal/poly1305 (xcrypto) or of chachakit's
# internal/poly1305 without its tests and benchmarks (Go, Scalar64, NEON).
# Both sides count the whole Sum: key set-up, blocks, final reduction.
# NEON is the default dispatch (blocksNEON from 960 bytes of whole blocks,
# blocksScalar64 below); Scalar64 forces blocksScalar64 for every length.
#
# Estimates (see "Reading the estimates" in bench/README.md for what they are worth): the
# loop to estimate is taken from an execution trace, not from the static
# code, so that x/crypto's updateGeneric (whose loop branches between a
# full and a partial block, with a never-taken overflow panic in between)
# is measured along the path a full block really takes. QEMU runs a 16 KiB
# Sum with -d exec,nochain over the function; the most frequently executed
# address with the lowest value marks the loop head, and the instructions
# from one of its executions in the middle of the run to the next are one
# trip (x/crypto: 1 block of 16 bytes; Scalar64: 8 blocks, 128 bytes; NEON:
# one vector step, 4 blocks, 64 bytes). The
# trip goes to llvm-mca-19 (200 iterations); cycles per byte = cycles per
# iteration / bytes per trip; "bound" is llvm-mca's Block RThroughput per
# byte, the figure to read on the in-order Cortex-A53 and A55.
#
# Seal (main loop, long messages) = keystream + Poly1305 over the ciphertext,
# since both libraries run them one after the other: the keystream figures
# come from bench/scripts/arm64-mca.sh (chachakit NEON4x1 and NEON6x2;
# x/crypto's 4-block NEON loop), the Poly1305 figures from above. chachakit's
# keystream is the path the dispatcher prefers on that core (NEON4x1 on
# Cortex-A53/A55/A57/A72, NEON6x2 elsewhere). These are model estimates,
# not measurements.
#
# Stitched-loop prototype (not code in the tree, an estimate of what one
# would gain): x/crypto's 4-block NEON round loop (it uses no general-purpose
# register but its counter, so Poly1305 has the integer registers to
# itself) with Scalar64 blocks added to its body, 16 blocks per 256 bytes:
# 6 trips with 2 blocks and 4 with 1, plus the rest of x/crypto's outer
# loop. "app." appends the blocks after the NEON instructions, "int."
# spreads them evenly between them (what an in-order core needs).
#
# Threshold (-threshold): for whole-block inputs of 512 to 1536 bytes, one
# call of blocksNEON and one of blocksScalar64 (BenchmarkPolyBlocks, which
# calls them directly): the guest instructions of the call (qemu-icount.sh
# over the function), and llvm-mca's estimate of the call, the instructions
# it executed (from a -d exec,nochain trace of its first call) given to
# llvm-mca-19 as one straight-line sequence with -iterations=1: "est" is
# its total cycles, "b" its resource bound (Block RThroughput). NEON pays
# where its figure drops below Scalar64's.
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 2; }

cpus="cortex-a53 cortex-a55 cortex-a57 neoverse-n1 neoverse-v1"
icpu=cortex-a72
sizes="64 1350 16384"
do_icount=1 do_mca=1 do_stitch=1 do_threshold=0 keep=""
while [[ $# -gt 0 ]]; do
	case "$1" in
	-cpus) cpus=$2; shift 2 ;;
	-icount-cpu) icpu=$2; shift 2 ;;
	-sizes) sizes=$2; shift 2 ;;
	-no-icount) do_icount=0; shift ;;
	-no-mca) do_mca=0; shift ;;
	-no-stitch) do_stitch=0; shift ;;
	-threshold) do_threshold=1; shift ;;
	-keep) keep=$2; shift 2 ;;
	*) usage ;;
	esac
done

root=$(cd "$(dirname "$0")/../.." && pwd)
if [[ -n "$keep" ]]; then
	work=$keep
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

(cd "$root" && GOARCH=arm64 GOOS=linux CGO_ENABLED=0 go test -c -o "$work/poly.test" ./internal/poly1305)
bin=$work/poly.test

xsym='^golang\.org/x/crypto/internal/poly1305\.'
csym='^github\.com/chachakit/chachakit/internal/poly1305\.[^BT]'

if [[ $do_icount == 1 ]]; then
	echo "Guest instructions per byte under qemu-aarch64 -cpu $icpu (one Sum per operation):"
	printf '%-8s %10s %10s %10s %10s %10s %12s %8s\n' bytes xcrypto Go Scalar64 NEON NEON/xc Scalar64/xc Go/xc
	# (NEON is the default dispatch: blocksNEON from neonMinBytes on.)
	for size in $sizes; do
		vals=()
		for i in xcrypto Go Scalar64 NEON; do
			sym=$csym
			[[ $i == xcrypto ]] && sym=$xsym
			out=$(bash "$root/bench/scripts/qemu-icount.sh" -arch arm64 -cpu "$icpu" -bin "$bin" -sym "$sym" \
				-ops 3 -bytes "$size" -- -test.run='^$' -polyicount \
				-test.bench="^BenchmarkPolyCount\$/^size=$size\$/^impl=$i\$" 2>/dev/null)
			read -r _ _ perbyte _ <<<"$out"
			vals+=("$perbyte")
		done
		awk -v s="$size" -v x="${vals[0]}" -v g="${vals[1]}" -v a="${vals[2]}" -v n="${vals[3]}" \
			'BEGIN { printf "%-8s %10.4f %10.4f %10.4f %10.4f %10.3f %12.3f %8.3f\n", s, x, g, a, n, n / x, a / x, g / x }'
	done
	echo
fi

if [[ $do_threshold == 1 ]]; then
	for tool in llvm-mca-19 llvm-objdump-19 python3; do
		command -v "$tool" >/dev/null || { echo "arm64-poly1305.sh: $tool not found (apt-get install -y llvm-19)" >&2; exit 1; }
	done
	pkg=github.com/chachakit/chachakit/internal/poly1305
	declare -A rng
	for fn in NEON Scalar64; do
		rng[$fn]=$(go tool nm -size "$bin" | awk -v s="$pkg.blocks$fn.abi0" '$4 == s { printf "0x%s+%d", $1, $2 }')
		llvm-objdump-19 -d --no-show-raw-insn --disassemble-symbols="$pkg.blocks$fn.abi0" "$bin" >"$work/t$fn.dis"
	done
	echo "Threshold: one call on whole blocks; guest instructions, and llvm-mca-19 estimates of the"
	echo "call's executed instructions (-iterations=1): cycles, est [b = resource bound]. Estimates."
	printf '%-6s %9s %9s' bytes "ins NEON" "ins S64"
	for cpu in $cpus; do printf ' | %-31s' "$cpu NEON / Scalar64"; done
	echo
	for size in $(seq 512 64 1536); do
		line=$(printf '%-6s' "$size")
		for fn in NEON Scalar64; do
			out=$(bash "$root/bench/scripts/qemu-icount.sh" -arch arm64 -cpu "$icpu" -bin "$bin" \
				-sym "^github\.com/chachakit/chachakit/internal/poly1305\.blocks$fn\.abi0\$" -ops 3 -- \
				-test.run='^$' -polyicount -test.bench="^BenchmarkPolyBlocks\$/^size=$size\$/^fn=$fn\$" 2>/dev/null)
			read -r perop _ <<<"$out"
			line+=$(printf ' %9s' "$perop")
			GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1 qemu-aarch64-static -cpu "$icpu" -one-insn-per-tb \
				-d exec,nochain -dfilter "${rng[$fn]}" -D "$work/t$fn.$size.log" "$bin" -test.run='^$' \
				-test.bench="^BenchmarkPolyBlocks\$/^size=$size\$/^fn=$fn\$" -test.benchtime=1x >/dev/null
			python3 - "$work/t$fn.$size.log" "$work/t$fn.dis" "$work/t$fn.$size.s" <<'EOF'
import re, sys
log, dis, out = sys.argv[1:]
pcs = [int(m.group(1), 16) for m in (re.search(r"\[[0-9a-f]+/([0-9a-f]+)/", l) for l in open(log)) if m]
text, ret = {}, None
for line in open(dis):
    m = re.match(r"\s*([0-9a-f]+):\s+(\S.*)$", line)
    if m:
        t = re.sub(r"\s*<[^>]*>", "", m.group(2).split("//")[0].strip())
        if re.match(r"(b\.\w+|b|cbz|cbnz|tbz|tbnz)\s", t):
            continue  # straight-line: the branches only steer the trace
        if t == "ret":
            ret = int(m.group(1), 16)
            continue
        text[int(m.group(1), 16)] = t
end = pcs.index(ret)  # the first call ends at its ret
open(out, "w").write("".join("\t" + text[pc] + "\n" for pc in pcs[:end] if pc in text))
EOF
		done
		for cpu in $cpus; do
			vals=()
			for fn in NEON Scalar64; do
				llvm-mca-19 -mtriple=aarch64 -mcpu="$cpu" -iterations=1 "$work/t$fn.$size.s" >"$work/t$fn.$size.$cpu.mca" 2>&1 ||
					{ cat "$work/t$fn.$size.$cpu.mca" >&2; exit 1; }
				vals+=("$(awk '/^Total Cycles:/ { c = $3 } /^Block RThroughput:/ { rt = $3 } END { printf "%d %.0f", c, rt }' "$work/t$fn.$size.$cpu.mca")")
			done
			read -r nc nb <<<"${vals[0]}"
			read -r sc sb <<<"${vals[1]}"
			line+=$(printf ' | %5d [b %5d] / %5d [b %5d]' "$nc" "$nb" "$sc" "$sb")
		done
		echo "$line"
	done
	echo
fi

[[ $do_mca == 1 ]] || exit 0
for tool in llvm-mca-19 llvm-objdump-19 python3; do
	command -v "$tool" >/dev/null || { echo "arm64-poly1305.sh: $tool not found (apt-get install -y llvm-19)" >&2; exit 1; }
done

# trip NAME SYMBOL IMPL: trace a 16 KiB Sum through SYMBOL and write one trip
# of its hottest loop to $work/NAME.s.
trip() {
	local name=$1 sym=$2 impl=$3 range
	range=$(go tool nm -size "$bin" | awk -v s="$sym" '$4 == s { printf "0x%s+%d", $1, $2 }')
	[[ -n "$range" ]] || { echo "arm64-poly1305.sh: $sym not in $bin" >&2; exit 1; }
	GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1 qemu-aarch64-static -cpu "$icpu" -one-insn-per-tb \
		-d exec,nochain -dfilter "$range" -D "$work/$name.log" "$bin" -test.run='^$' \
		-test.bench="^BenchmarkPolyCount\$/^size=16384\$/^impl=$impl\$" -test.benchtime=1x >/dev/null
	llvm-objdump-19 -d --no-show-raw-insn --disassemble-symbols="$sym" "$bin" >"$work/$name.dis"
	python3 - "$work/$name.log" "$work/$name.dis" "$work/$name.s" <<'EOF'
import collections, re, sys
log, dis, out = sys.argv[1:]
pcs = [int(m.group(1), 16) for m in (re.search(r"\[[0-9a-f]+/([0-9a-f]+)/", l) for l in open(log)) if m]
text = {}
for line in open(dis):
    m = re.match(r"\s*([0-9a-f]+):\s+(\S.*)$", line)
    if m:
        t = re.sub(r"\s*<[^>]*>", "", m.group(2).split("//")[0].strip())
        b = re.match(r"(b\.\w+|b|cbz|cbnz|tbz|tbnz)\s+(.*)$", t)
        if b:  # llvm-mca does not follow branches; it only needs a label
            t = re.sub(r"0x[0-9a-f]+$", "Ltop", t)
        text[int(m.group(1), 16)] = t
count = collections.Counter(pcs)
top = max(count.values())
head = min(pc for pc, n in count.items() if n == top)
at = [i for i, pc in enumerate(pcs) if pc == head]
mid = len(at) // 2
body = pcs[at[mid]:at[mid + 1]]
open(out, "w").write("Ltop:\n" + "".join("\t" + text[pc] + "\n" for pc in body))
print(f"{out}: {len(body)} instructions per trip, loop head {head:#x} executed {top} times", file=sys.stderr)
EOF
}

trip xcrypto golang.org/x/crypto/internal/poly1305.updateGeneric xcrypto
trip Scalar64 github.com/chachakit/chachakit/internal/poly1305.blocksScalar64.abi0 Scalar64
trip NEON github.com/chachakit/chachakit/internal/poly1305.blocksNEON.abi0 NEON

# mca CPU FILE: print "cycles-per-iteration block-rthroughput".
mca() {
	llvm-mca-19 -mtriple=aarch64 -mcpu="$1" -iterations=200 "$2" >"$2.$1.mca" 2>&1 ||
		{ cat "$2.$1.mca" >&2; exit 1; }
	awk '/^Iterations:/ { it = $2 } /^Total Cycles:/ { c = $3 } /^Block RThroughput:/ { rt = $3 }
		END { printf "%.2f %.2f\n", c / it, rt }' "$2.$1.mca"
}

# The keystream loops, from arm64-mca.sh's table: est and bound per path.
bash "$root/bench/scripts/arm64-mca.sh" -no-icount -cpus "$cpus" -keep "$work/chacha" >"$work/chacha.txt"

echo "llvm-mca-19 estimates, cycles per byte (est = scheduled, b = resource bound):"
printf '%-12s %17s %17s %17s %11s | %17s %17s %17s | %17s %17s %9s\n' mcpu \
	"Poly xcrypto" "Poly Scalar64" "Poly NEON" "NEON/xc" "CC20 xcrypto" "CC20 NEON4x1" "CC20 NEON6x2" \
	"Seal xcrypto" "Seal chachakit" "ratio"
for cpu in $cpus; do
	read -r xc xrt < <(mca "$cpu" "$work/xcrypto.s")
	read -r sc srt < <(mca "$cpu" "$work/Scalar64.s")
	read -r nc nrt < <(mca "$cpu" "$work/NEON.s")
	# Fields of arm64-mca.sh's row: cpu, then "est (b bound)" per path.
	read -r k4 k4b k6 k6b kx kxb < <(awk -v c="$cpu" '$1 == c { gsub(/\)/, ""); print $2, $4, $5, $7, $8, $10; exit }' "$work/chacha.txt")
	[[ -n "$kx" ]] || { echo "arm64-poly1305.sh: no keystream figures for $cpu" >&2; cat "$work/chacha.txt" >&2; exit 1; }
	case $cpu in
	cortex-a53 | cortex-a55 | cortex-a57 | cortex-a72) kc=$k4 kcb=$k4b ;;
	*) kc=$k6 kcb=$k6b ;;
	esac
	awk -v cpu="$cpu" -v xc="$xc" -v xrt="$xrt" -v sc="$sc" -v srt="$srt" -v nc="$nc" -v nrt="$nrt" \
		-v k4="$k4" -v k4b="$k4b" -v k6="$k6" -v k6b="$k6b" -v kx="$kx" -v kxb="$kxb" -v kc="$kc" -v kcb="$kcb" 'BEGIN {
		px = xc / 16; pxb = xrt / 16; ps = sc / 128; psb = srt / 128; pn = nc / 128; pnb = nrt / 128
		sx = kx + px; sxb = kxb + pxb; ss = kc + pn; ssb = kcb + pnb
		printf "%-12s %7.2f (b %5.2f) %7.2f (b %5.2f) %7.2f (b %5.2f) %4.2f[%4.2f] | %7.2f (b %5.2f) %7.2f (b %5.2f) %7.2f (b %5.2f) | %7.2f (b %5.2f) %7.2f (b %5.2f) %4.2f[%4.2f]\n",
			cpu, px, pxb, ps, psb, pn, pnb, pn / px, pnb / pxb, kx, kxb, k4, k4b, k6, k6b, sx, sxb, ss, ssb, ss / sx, ssb / sxb
	}'
done
echo "(Poly NEON: one trip of blocksNEON's loop, two vector steps, 128 bytes. Seal chachakit ="
echo "the keystream path the dispatcher prefers on the core (NEON4x1 on Cortex-A5x/A72, NEON6x2"
echo "elsewhere) + Poly1305 NEON (the default for long messages). ratios = chachakit / x/crypto,"
echo "scheduled estimate [resource bound]. Estimates from llvm-mca's models, not measurements.)"

[[ $do_stitch == 1 ]] || exit 0

# The prototype: one Scalar64 block (the first 23 instructions of the trip,
# x21/x22 renamed, as x/crypto's round loop counts in x21) put into
# x/crypto's round loop once or twice.
python3 - "$work/chacha/xcrypto.loop0.s" "$work/Scalar64.s" "$work/stitch" <<'EOF'
import sys
neon_file, poly_file, out = sys.argv[1:]
neon = [l for l in open(neon_file).read().split("\n")[1:] if l.strip()]
branch, neon = neon[-2:], neon[:-2]  # the counter's sub and cbnz stay last
block = [l.replace("x21", "x24").replace("x22", "x25")
         for l in open(poly_file).read().split("\n")[1:24]]
for k in (1, 2):
    poly = block * k
    open(f"{out}.app{k}.s", "w").write("Ltop:\n" + "\n".join(neon + poly + branch) + "\n")
    body, j = [], 0
    for i, l in enumerate(neon):
        body.append(l)
        while j < len(poly) and j * len(neon) <= (i + 1) * len(poly):
            body.append(poly[j])
            j += 1
    body += poly[j:]
    open(f"{out}.int{k}.s", "w").write("Ltop:\n" + "\n".join(body + branch) + "\n")
EOF

echo
echo "Stitched-loop prototype (x/crypto's 4-block NEON loop + 16 Scalar64 blocks per 256 bytes),"
echo "llvm-mca-19 estimates, cycles per byte; ratio against Seal xcrypto above:"
printf '%-12s %10s %10s %10s %22s\n' mcpu "app." "int." "bound" "ratio app.[int.][bound]"
for cpu in $cpus; do
	read -r a1 b1 < <(mca "$cpu" "$work/stitch.app1.s")
	read -r a2 b2 < <(mca "$cpu" "$work/stitch.app2.s")
	read -r i1 _ < <(mca "$cpu" "$work/stitch.int1.s")
	read -r i2 _ < <(mca "$cpu" "$work/stitch.int2.s")
	read -r rr rb < <(mca "$cpu" "$work/chacha/xcrypto.rest.s")
	read -r xc xrt < <(mca "$cpu" "$work/xcrypto.s")
	read -r kx kxb < <(awk -v c="$cpu" '$1 == c { gsub(/\)/, ""); print $8, $10; exit }' "$work/chacha.txt")
	awk -v cpu="$cpu" -v a1="$a1" -v a2="$a2" -v i1="$i1" -v i2="$i2" -v b1="$b1" -v b2="$b2" -v rr="$rr" -v rb="$rb" \
		-v xc="$xc" -v xrt="$xrt" -v kx="$kx" -v kxb="$kxb" 'BEGIN {
		app = (6 * a2 + 4 * a1 + rr) / 256; spread = (6 * i2 + 4 * i1 + rr) / 256; bnd = (6 * b2 + 4 * b1 + rb) / 256
		sx = kx + xc / 16; sxb = kxb + xrt / 16
		printf "%-12s %10.2f %10.2f %10.2f %8.2f[%4.2f][%4.2f]\n", cpu, app, spread, bnd, app / sx, spread / sx, bnd / sxb
	}'
done
