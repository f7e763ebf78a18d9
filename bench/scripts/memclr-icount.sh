#!/usr/bin/env bash
# memclr-icount.sh: guest instructions per operation of runtimehooks.Memclr
# and of clear() on riscv64 under QEMU (issue 4's bars), for the tables in
# bench/README.md ("runtimehooks.Memclr").
#
# Usage: bench/scripts/memclr-icount.sh [-cpu rv64|rva23u64] [SIZE...]
#
#   SIZE   benchmark names: 5 16 64 256 4096 65536 1M (BenchmarkMemclr) or
#          R1K_2K R2K_8K R4K_16K R160K_228K (BenchmarkMemclrRange);
#          default: all of them but 4M..64M.
#
# Columns: clear = runtime.memclrNoHeapPointers entered from the benchmark's
# clear() call only (the runtime calls it for its own purposes too, in
# amounts that depend on wall time, so the lines are kept only between the
# CALL of clearLoop and the return to clearLoop); Memclr = the assembly
# (memclr.abi0); "+site" adds the benchmark loop (clearLoop), which both
# sub-benchmarks share. The byte loop is BenchmarkByteLoop's clearByteLoop.
set -euo pipefail
cd "$(dirname "$0")/../.."

cpu=rv64
if [[ ${1:-} == -cpu ]]; then cpu=$2; shift 2; fi
sizes=("$@")
[[ ${#sizes[@]} == 0 ]] && sizes=(5 16 64 256 4096 65536 1M R1K_2K R2K_8K R4K_16K R160K_228K)

bin=$(mktemp -d)/rh.test
if [[ $cpu == rva23u64 ]]; then
	GORISCV64=rva23u64 GOARCH=riscv64 go test -c -o "$bin" ./internal/wipe
else
	GOARCH=riscv64 go test -c -o "$bin" ./internal/wipe
fi
icountsh=bench/scripts/qemu-icount.sh
P='^github.com/chachakit/chachakit/internal/wipe\.'

declare -A bytes=([5]=5 [16]=16 [64]=64 [256]=256 [4096]=4096 [65536]=65536 [1M]=1048576
	[R1K_2K]=103118 [R2K_8K]=337425 [R4K_16K]=369615 [R160K_228K]=1627017)
declare -A ops=([5]=1000 [16]=1000 [64]=1000 [256]=1000 [4096]=200 [65536]=20 [1M]=3
	[R1K_2K]=20 [R2K_8K]=10 [R4K_16K]=10 [R160K_228K]=3)

icount() { # SYM OPS BYTES BENCH
	"$icountsh" -arch riscv64 -cpu "$cpu" -bin "$bin" -sym "$1" -ops "$2" -bytes "$3" -- \
		-test.run='^$' -test.bench="$4"
}
count_clear() { # BENCH OPS
	local log callpc
	log=$(mktemp)
	callpc=$(go tool objdump -s 'internal/wipe\.clearLoop$' "$bin" |
		awk '/CALL runtime\.memclrNoHeapPointers\(SB\)/{sub(/^0x0*/, "", $2); print $2}')
	"$icountsh" -arch riscv64 -cpu "$cpu" -bin "$bin" \
		-sym "^runtime\.memclrNoHeapPointers\$|${P}clearLoop\$" -log "$log" -- \
		-test.run='^$' -test.bench="$1" -test.benchtime="${2}x" >/dev/null
	awk -v callpc="$callpc" -v iters=$(($2 + 1)) '/^Trace/ {
		split($4, f, "/"); pc = f[2]; sub(/^0+/, "", pc)
		if ($NF ~ /clearLoop/) { site++; inside = (pc == callpc); next }
		if (inside) n++
	} END { printf "%.2f/op, +site %.2f/op", n / iters, (n + site) / iters }' "$log"
	rm -f "$log"
}

echo "riscv64 -cpu $cpu: instructions per operation"
for name in "${sizes[@]}"; do
	bench="^BenchmarkMemclr\$/^$name\$"
	label=$name
	if [[ $name == R* ]]; then
		label=${name#R}
		bench="^BenchmarkMemclrRange\$/^$label\$"
	fi
	n=${ops[$name]} b=${bytes[$name]}
	echo "$label (${b} B) clear:  $(count_clear "$bench/impl=clear\$" "$n")"
	echo "$label (${b} B) Memclr: $(icount "${P}memclr\.abi0\$" "$n" "$b" "$bench/impl=Memclr\$")"
	echo "$label (${b} B) +site:  $(icount "${P}(memclr\.abi0|clearLoop)\$" "$n" "$b" "$bench/impl=Memclr\$")"
done
for n in 5 16 64; do
	echo "byteloop $n: $(icount "${P}clearByteLoop\$" 1000 "$n" "^BenchmarkByteLoop\$/^$n\$")"
done
