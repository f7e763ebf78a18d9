#!/usr/bin/env bash
# arm64-aead-mca.sh: llvm-mca estimates of ChaCha20-Poly1305 Seal's main
# loop on arm64: chachakit's stitched loops (internal/aeadasm, xorMACNEON
# and its SVE2 twin xorMACSVE2), chachakit's separate passes,
# golang.org/x/crypto's separate passes, and BoringSSL's fused loop
# (chacha20_poly1305_armv8.pl).
#
# Usage: bench/scripts/arm64-aead-mca.sh [-cpus "cortex-a53 ..."]
#                                        [-boringssl PERLASM] [-keep DIR]
#
#   -cpus        llvm-mca -mcpu models (default: cortex-a53 cortex-a55
#                cortex-a57 neoverse-n1 neoverse-n2 neoverse-v1
#                neoverse-v2 ampere1)
#   -boringssl   path of BoringSSL's crypto/cipher/asm/
#                chacha20_poly1305_armv8.pl (not in this repository, and
#                never downloaded by this script); without it the BoringSSL
#                column says "absent"
#   -keep DIR    keep the binaries, loops and llvm-mca reports in DIR
#
# Needs llvm-mca-19, llvm-mc-19, llvm-objdump-19 (apt-get install -y
# llvm-19), python3, perl, qemu-aarch64-static and the sibling scripts
# split-loops.py and arm64-poly1305.sh.
#
# Prints one line per model:
#
#   seal MODEL chachakit X [b] xcrypto Y [b] boringssl Z [b]
#
# in cycles per byte, scheduled estimate, resource bound in brackets (the
# figure to read on the in-order Cortex-A53 and A55), then a table with
# the three chachakit paths. chachakit's X is the path its route takes on
# that core (internal/cpuid's AEADLoopFor: the separate passes on
# Cortex-A53 and A55, the SVE2 stitched loop on Neoverse N2 and V2, the
# NEON one elsewhere); the SVE2 loop is estimated only on the models of
# cores with SVE2 (N2, V2: "-" elsewhere). These are model estimates, not
# measurements (see "Reading the estimates" in bench/README.md).
#
# Method:
#   - stitched: the arm64 test binary of internal/aeadasm, disassembled;
#     xorMACNEON's outer loop is one 384-byte batch, its round loop runs 4
#     trips of two double rounds (split-loops.py) and the last two double
#     rounds follow it unrolled; cycles per batch = round loop cycles x 4 +
#     the rest of the outer loop (those two included), over 384 bytes.
#     xorMACSVE2 the same way (its round loop: 4 trips of two double
#     rounds, then two unrolled).
#   - separate passes, chachakit and x/crypto: "Seal xcrypto" and "Seal
#     chachakit" of arm64-poly1305.sh -no-icount -no-stitch (keystream loop
#     + Poly1305 loop over the same bytes, each estimated alone).
#   - BoringSSL: the perlasm run by perl (flavour linux64, through a
#     pass-through stand-in for arm-xlate.pl that only drops the ELF
#     relocation prefixes llvm-mc does not need), the result assembled by
#     llvm-mc-19 as a check, then chacha20_poly1305_seal's main loop cut out
#     of the generated text by its labels: the round loop
#     .Lseal_main_loop_rounds (10 trips of one double round on 5 NEON
#     blocks with 2 Poly1305 blocks, the steady state from the second
#     iteration on) and the rest of .Lseal_main_loop, over 320 bytes.
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 2; }

cpus="cortex-a53 cortex-a55 cortex-a57 neoverse-n1 neoverse-n2 neoverse-v1 neoverse-v2 ampere1"
bssl=""
keep=""
while [[ $# -gt 0 ]]; do
	case "$1" in
	-cpus) cpus=$2; shift 2 ;;
	-boringssl) bssl=$2; shift 2 ;;
	-keep) keep=$2; shift 2 ;;
	*) usage ;;
	esac
done

root=$(cd "$(dirname "$0")/../.." && pwd)
for tool in llvm-mca-19 llvm-mc-19 llvm-objdump-19 python3 perl; do
	command -v "$tool" >/dev/null || { echo "arm64-aead-mca.sh: $tool not found (apt-get install -y llvm-19)" >&2; exit 1; }
done
if [[ -n "$keep" ]]; then
	work=$keep
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

# mca CPU FILE: print "cycles-per-iteration block-rthroughput".
mca() {
	llvm-mca-19 -mtriple=aarch64 -mcpu="$1" -iterations=200 "$2" >"$2.$1.mca" 2>&1 ||
		{ cat "$2.$1.mca" >&2; exit 1; }
	awk '/^Iterations:/ { it = $2 } /^Total Cycles:/ { c = $3 } /^Block RThroughput:/ { rt = $3 }
		END { printf "%.2f %.2f\n", c / it, rt }' "$2.$1.mca"
}

# loopcost CPU PREFIX BYTES TRIPS...: "est bound" cycles per byte of a loop
# split into PREFIX.loopK.s (TRIPS[K] trips each) and PREFIX.rest.s.
loopcost() {
	local cpu=$1 prefix=$2 bytes=$3 est=0 bound=0 k=0 c rt
	shift 3
	for n in "$@"; do
		read -r c rt < <(mca "$cpu" "$prefix.loop$k.s")
		est=$(awk -v a="$est" -v c="$c" -v n="$n" 'BEGIN { print a + c * n }')
		bound=$(awk -v a="$bound" -v c="$rt" -v n="$n" 'BEGIN { print a + c * n }')
		k=$((k + 1))
	done
	read -r c rt < <(mca "$cpu" "$prefix.rest.s")
	awk -v a="$est" -v b="$bound" -v c="$c" -v rt="$rt" -v n="$bytes" \
		'BEGIN { printf "%.2f %.2f\n", (a + c) / n, (b + rt) / n }'
}

# The stitched loop.
(cd "$root" && GOARCH=arm64 GOOS=linux CGO_ENABLED=0 go test -c -o "$work/aeadasm.test" ./internal/aeadasm)
llvm-objdump-19 -d --no-show-raw-insn \
	--disassemble-symbols=github.com/chachakit/chachakit/internal/aeadasm.xorMACNEON.abi0 \
	"$work/aeadasm.test" >"$work/stitched.dis"
python3 "$root/bench/scripts/split-loops.py" "$work/stitched.dis" "$work/stitched" 4
llvm-objdump-19 -d --no-show-raw-insn --mattr=+sve2 \
	--disassemble-symbols=github.com/chachakit/chachakit/internal/aeadasm.xorMACSVE2.abi0 \
	"$work/aeadasm.test" >"$work/sve2.dis"
python3 "$root/bench/scripts/split-loops.py" "$work/sve2.dis" "$work/sve2" 4

# The separate passes (chachakit and x/crypto).
bash "$root/bench/scripts/arm64-poly1305.sh" -no-icount -no-stitch -cpus "$cpus" -keep "$work/poly" >"$work/poly.txt"

# BoringSSL's fused loop.
have_bssl=0
if [[ -z "$bssl" ]]; then
	echo "arm64-aead-mca.sh: no -boringssl PERLASM given: BoringSSL skipped" >&2
elif [[ ! -f "$bssl" ]]; then
	echo "arm64-aead-mca.sh: $bssl not found: BoringSSL skipped" >&2
else
	mkdir -p "$work/bssl"
	cp "$bssl" "$work/bssl/chacha20_poly1305_armv8.pl"
	cat >"$work/bssl/arm-xlate.pl" <<'EOF'
# Stand-in for BoringSSL's arm-xlate.pl: copy the code to the output file,
# without the ELF relocation prefix :pg_hi21: (llvm-mc reads adrp's plain
# symbol) and the C preprocessor lines.
my ($flavour, $output) = @ARGV;
open OUT, ">", $output or die "$output: $!";
while (<STDIN>) {
	s/:pg_hi21://g;
	next if /^\s*#include/;
	s/^\s*AARCH64_(SIGN_LINK_REGISTER|VALIDATE_LINK_REGISTER)\s*$//;
	print OUT;
}
close OUT or die;
EOF
	(cd "$work/bssl" && perl chacha20_poly1305_armv8.pl linux64 bssl.S)
	llvm-mc-19 -triple=aarch64 -mattr=+neon -filetype=obj -o "$work/bssl/bssl.o" "$work/bssl/bssl.S"
	python3 - "$work/bssl/bssl.S" "$work/bssl/seal" <<'EOF'
import re, sys
src, out = sys.argv[1:]
lines = [l.split("//")[0].rstrip() for l in open(src)]
def at(label):
    return next(i for i, l in enumerate(lines) if l.strip() == label + ":")
main, rounds, tail = at(".Lseal_main_loop"), at(".Lseal_main_loop_rounds"), at(".Lseal_tail")
end = next(i for i in range(rounds, tail) if re.match(r"\s*b\.gt\s+\.Lseal_main_loop_rounds$", lines[i]))
def asm(body):
    # Only instructions; branch targets and adrp's symbol point at a label
    # defined at the top (llvm-mca does not follow branches).
    keep = []
    for l in body:
        t = l.strip()
        if not t or t.endswith(":") or t.startswith("."):
            continue
        t = re.sub(r"^(b\.\w+|b|cbz|cbnz)(\s+(?:\w+,\s*)?)\.L\w+$", r"\1\2Ltop", t)
        t = re.sub(r"^(adrp\s+\w+,\s*)\.L\w+$", r"\1Ltop", t)
        t = re.sub(r":lo12:\.L\w+", ":lo12:Ltop", t)
        keep.append("\t" + t)
    return "Ltop:\n" + "\n".join(keep) + "\n"
open(out + ".loop0.s", "w").write(asm(lines[rounds + 1:end + 1]))
rest = lines[main + 1:rounds] + [l for l in lines[end + 1:tail] if not re.match(r"\s*(cmp\s+x2, #320|b\.le\s+\.Lseal_tail)$", l)]
open(out + ".rest.s", "w").write(asm(rest))
print(f"{out}: round loop {len(asm(lines[rounds + 1:end + 1]).splitlines()) - 1} instructions, rest {len(asm(rest).splitlines()) - 1}", file=sys.stderr)
EOF
	have_bssl=1
fi

# chosen CPU: the path chachakit's route takes on the core that -mcpu models.
chosen() {
	case $1 in
	cortex-a53 | cortex-a55) echo separate ;;
	neoverse-n2 | neoverse-v2) echo sve2 ;;
	*) echo stitched ;;
	esac
}

# hassve2 CPU: whether the core that -mcpu models has SVE2.
hassve2() {
	case $1 in
	neoverse-n2 | neoverse-v2) return 0 ;;
	esac
	return 1
}

declare -A ST SV SE XC BS
for cpu in $cpus; do
	read -r e b < <(loopcost "$cpu" "$work/stitched" 384 4)
	ST[$cpu]="$e $b"
	SV[$cpu]="-"
	if hassve2 "$cpu"; then
		read -r e b < <(loopcost "$cpu" "$work/sve2" 384 4)
		SV[$cpu]="$e $b"
	fi
	# arm64-poly1305.sh's row: ... | Seal xcrypto est (b bound) Seal chachakit est (b bound) ratio.
	row=$(awk -v c="$cpu" '$1 == c { gsub(/[()]/, ""); print; exit }' "$work/poly.txt")
	[[ -n "$row" ]] || { echo "arm64-aead-mca.sh: no Seal figures for $cpu" >&2; cat "$work/poly.txt" >&2; exit 1; }
	read -r -a f <<<"$(echo "$row" | awk -F'|' '{ print $3 }')"
	XC[$cpu]="${f[0]} ${f[2]}"
	SE[$cpu]="${f[3]} ${f[5]}"
	if [[ $have_bssl == 1 ]]; then
		read -r e b < <(loopcost "$cpu" "$work/bssl/seal" 320 10)
		BS[$cpu]="$e $b"
	else
		BS[$cpu]="absent"
	fi
done

echo "llvm-mca-19 estimates of Seal's main loop, cycles per byte, scheduled [resource bound]:"
# pathof CPU: "est bound" of the path chosen on CPU.
pathof() {
	case $(chosen "$1") in
	stitched) echo "${ST[$1]}" ;;
	sve2) echo "${SV[$1]}" ;;
	*) echo "${SE[$1]}" ;;
	esac
}
for cpu in $cpus; do
	c=$(pathof "$cpu")
	b=${BS[$cpu]}
	[[ $b == absent ]] || b=$(awk -v e="${b% *}" -v r="${b#* }" 'BEGIN { printf "%.2f [%.2f]", e, r }')
	printf 'seal %s chachakit %s xcrypto %s boringssl %s\n' "$cpu" \
		"$(awk -v e="${c% *}" -v r="${c#* }" 'BEGIN { printf "%.2f [%.2f]", e, r }')" \
		"$(awk -v e="${XC[$cpu]% *}" -v r="${XC[$cpu]#* }" 'BEGIN { printf "%.2f [%.2f]", e, r }')" "$b"
done
echo
printf '%-12s %9s %-15s %-15s %-15s %-15s %-15s %-13s %-13s\n' mcpu chosen stitched sve2 separate xcrypto boringssl "chosen/xc" "chosen/bssl"
for cpu in $cpus; do
	awk -v cpu="$cpu" -v ch="$(chosen "$cpu")" -v st="${ST[$cpu]}" -v sv="${SV[$cpu]}" -v se="${SE[$cpu]}" -v xc="${XC[$cpu]}" -v bs="${BS[$cpu]}" -v c="$(pathof "$cpu")" 'BEGIN {
		split(st, s); split(se, p); split(xc, x); split(c, k)
		b = "absent"; rb = "-"; v = "-"
		if (bs != "absent") { split(bs, q); b = sprintf("%.2f [%.2f]", q[1], q[2]); rb = sprintf("%.3f [%.2f]", k[1] / q[1], k[2] / q[2]) }
		if (sv != "-") { split(sv, w); v = sprintf("%.2f [%.2f]", w[1], w[2]) }
		printf "%-12s %9s %-15s %-15s %-15s %-15s %-15s %-13s %-13s\n", cpu, ch,
			sprintf("%.2f [%.2f]", s[1], s[2]), v, sprintf("%.2f [%.2f]", p[1], p[2]), sprintf("%.2f [%.2f]", x[1], x[2]), b,
			sprintf("%.3f [%.2f]", k[1] / x[1], k[2] / x[2]), rb
	}'
done
