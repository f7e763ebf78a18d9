#!/usr/bin/env bash
# ct-valgrind.sh: the constant-time check under valgrind's memcheck (issue 46).
#
# The harness internal/ct/harness_test.go marks keys and plaintexts secret
# (memcheck: undefined) and runs Seal, Open, SealX/OpenX, XORKeyStream in
# split calls, HChaCha20, SealBatch/OpenBatch and aead/tls13's record and
# packet protection; memcheck reports every branch and every memory address
# that depends on a secret. internal/ct/vgreport places each report at the
# innermost chachakit frame and compares it with internal/ct/allowed.txt.
#
# Rows: one per path valgrind can execute (valgrind runs no AVX-512, so
# every amd64 row turns it off), then the planted leaks, which must be
# reported. Lengths: every operation at every length 0..1100, and at 1536,
# 2048, 4096, 8191, 16384, 16397 (16384+13) and 65543 (the TLS record
# rows stop at 16384, its largest content).
#
# Usage: scripts/ct-valgrind.sh [-k]   (-k keeps the work directory)
# Exit status: non-zero on an unexpected report, a failed harness, or a
# planted leak that was not reported. Installing valgrind needs root or
# passwordless sudo.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
keep=0
[[ ${1:-} == -k ]] && keep=1

as_root() {
	if [[ $(id -u) == 0 ]]; then
		"$@"
	else
		sudo -n "$@"
	fi
}

if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind not found; installing Debian's package"
	export DEBIAN_FRONTEND=noninteractive
	as_root apt-get -q -o Acquire::Retries=3 update
	as_root apt-get -q -o Acquire::Retries=3 install -y --no-install-recommends valgrind
fi
valgrind --version

work=$(mktemp -d)
if [[ $keep == 0 ]]; then
	trap 'rm -rf "$work"' EXIT
else
	echo "work directory: $work"
fi

t0=$(date +%s)
# The tag valgrind makes Go's runtime describe its heap and stacks to
# memcheck (runtime/valgrind.go, Go 1.25 and later).
echo "+ building the harness (-tags valgrind, and valgrind purego)"
go test -c -tags valgrind -o "$work/ct.test" ./internal/ct
go test -c -tags 'valgrind purego' -o "$work/ct-purego.test" ./internal/ct
go build -o "$work/vgreport" ./internal/ct/vgreport
echo "built in $(($(date +%s) - t0))s"

# GOGC=off: memory the collector frees and reuses keeps the definedness of
# its last use, and gives false reports. GODEBUG=asyncpreemptoff=1 (in each
# row): a preemption signal makes the runtime call asyncPreempt at whatever
# Go instruction it interrupted (never inside assembly), and memcheck reports
# that call's register spills and reloads as invalid reads and writes at the
# interrupted chachakit line, a bounds or overlap check as often as not;
# the purego build, all Go, collected most of them. GOMAXPROCS=1 keeps the
# run on one thread and its reports the same from run to run.
base_env=(GOGC=off GOMAXPROCS=1)
vg=(valgrind --tool=memcheck --error-limit=no --leak-check=no --num-callers=40 --xml=yes)

failed=()

# row NAME BINARY GODEBUG EXPECT TEST-ARGS...: run one row and report it.
# EXPECT is empty for a check row, or the planted kernels it must report.
row() {
	local name=$1 bin=$2 godebug=$3 expect=$4
	shift 4
	local xml="$work/$name.xml" log="$work/$name.log" t=$(date +%s)
	echo
	echo "=== $name (GODEBUG=$godebug $*)"
	if ! env "${base_env[@]}" GODEBUG="$godebug" "${vg[@]}" --xml-file="$xml" \
		"$bin" -test.v -test.count=1 "$@" >"$log" 2>&1; then
		grep -v -e '^--' -e 'DW_FORM' "$log" | tail -20
		echo "$name: the harness failed under valgrind"
		failed+=("$name")
		return
	fi
	grep -e 'paths:' "$log" | sed 's/^ */  /' || true
	local args=(-row "$name" -allowed internal/ct/allowed.txt -root .)
	[[ -n $expect ]] && args+=(-expect "$expect")
	if ! "$work/vgreport" "${args[@]}" "$xml"; then
		failed+=("$name")
	fi
	echo "($(($(date +%s) - t))s)"
}

check=(-test.run '^TestValgrind$')
case $(go env GOARCH) in
amd64)
	noavx512=cpu.avx512f=off,asyncpreemptoff=1
	row default "$work/ct.test" "$noavx512" "" "${check[@]}"
	row ssse3 "$work/ct.test" cpu.avx2=off,$noavx512 "" "${check[@]}"
	row purego "$work/ct-purego.test" asyncpreemptoff=1 "" "${check[@]}"
	# Forced by name: the AEAD through its Go layer over the AVX2
	# ChaCha20 and Poly1305 kernels (no stitched kernel), and the narrow
	# kernels on a CPU whose AVX2 the batch and header-mask lanes still use.
	# XORBytes has no path to force on amd64 (it is crypto/subtle's).
	row aead-go "$work/ct.test" "$noavx512" "" "${check[@]}" -ct.impl=aead=Go
	row narrow "$work/ct.test" "$noavx512" "" "${check[@]}" \
		-ct.impl=chacha20=SSSE3,poly1305=Scalar
	planted_env=$noavx512
	;;
*)
	row default "$work/ct.test" asyncpreemptoff=1 "" "${check[@]}"
	row purego "$work/ct-purego.test" asyncpreemptoff=1 "" "${check[@]}"
	planted_env=asyncpreemptoff=1
	;;
esac
row planted-branch "$work/ct.test" "$planted_env" internal/ct_test.plantedBranchKernel -test.run '^TestPlantedBranch$'
row planted-load "$work/ct.test" "$planted_env" internal/ct_test.plantedLoadKernel -test.run '^TestPlantedLoad$'

echo
echo "total $(($(date +%s) - t0))s"
if [[ ${#failed[@]} -gt 0 ]]; then
	echo "FAIL: ${failed[*]}"
	exit 1
fi
echo "ok: no unexpected report on any row; both planted leaks reported"
