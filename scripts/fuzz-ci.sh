#!/usr/bin/env bash
# fuzz-ci.sh: fuzz every target of ./fuzz for a bounded time (amd64, native).
#
# Usage: scripts/fuzz-ci.sh [TARGET...]
#
#   TARGET...   fuzz targets to run (default: every Fuzz* of ./fuzz, as listed
#               by "go test -list": FuzzSealOpen, FuzzSealBatch, FuzzOpen, FuzzXORKeyStream,
#               FuzzMemclr, FuzzXORBytes, and the aead/tls13 targets
#               FuzzRecord and FuzzQUICPacket)
#
# Environment:
#   FUZZTIME           -fuzztime per target (default 20s; "1000x" style counts work)
#   FUZZ_PARALLEL      -parallel, the number of fuzzing workers (default: GOMAXPROCS)
#   FUZZ_MINIMIZETIME  -fuzzminimizetime (default: go test's, 60s)
#   GOFLAGS            honoured
#
# Each target gets one "go test -run '^$' -fuzz '^Target$' -fuzztime ... ./fuzz"
# invocation; the targets loop over every implementation the registry has on
# this CPU. A finding makes go test fail and write the failing input to
# fuzz/testdata/fuzz/<Target>/ (commit it with a regression test once the bug
# is fixed). All targets run; the script prints one summary line per target
# ("PASS FuzzOpen 20s 612345 execs (30617/s)") and exits non-zero if any
# target failed or could not run. A bare "context deadline exceeded" at the
# -fuzztime boundary with no failing input is Go's coordinator race
# (golang/go#75804, fixed in Go 1.27): printed as FLAKE, not a failure.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

fuzztime=${FUZZTIME:-20s}
extra=()
if [[ -n "${FUZZ_PARALLEL:-}" ]]; then
	extra=(-parallel "$FUZZ_PARALLEL")
fi
if [[ -n "${FUZZ_MINIMIZETIME:-}" ]]; then
	extra+=(-fuzzminimizetime "$FUZZ_MINIMIZETIME")
fi

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
	mapfile -t targets < <(go test -list '^Fuzz' ./fuzz | grep '^Fuzz' || true)
fi
if [[ ${#targets[@]} -eq 0 ]]; then
	echo "fuzz-ci.sh: no fuzz targets found in ./fuzz" >&2
	exit 1
fi

# Build once (and replay the seed corpus) before fuzzing, so that a compile
# error or a failing seed shows as such rather than as a fuzzing failure.
echo "+ go test ./fuzz"
go test ./fuzz

log=$(mktemp)
trap 'rm -f "$log"' EXIT
summary=()
failed=0
for t in "${targets[@]}"; do
	echo
	echo "+ go test -run '^\$' -fuzz '^$t\$' -fuzztime $fuzztime ${extra[*]} ./fuzz"
	rc=0
	go test -run '^$' -fuzz "^$t\$" -fuzztime "$fuzztime" "${extra[@]}" ./fuzz 2>&1 | tee "$log" || rc=$?
	# The last progress line: "fuzz: elapsed: 1m20s, execs: 612345 (30617/sec), ..."
	# Its rate is that of the last 3 s only; the average is recomputed.
	line=$(grep -E '^fuzz: elapsed: [0-9hms]+, execs: [0-9]+' "$log" | tail -n 1 || true)
	stats="execs: not reported"
	if [[ $line =~ elapsed:\ (([0-9]+)h)?(([0-9]+)m)?([0-9]+)s,\ execs:\ ([0-9]+) ]]; then
		secs=$((10#${BASH_REMATCH[2]:-0} * 3600 + 10#${BASH_REMATCH[4]:-0} * 60 + 10#${BASH_REMATCH[5]}))
		execs=${BASH_REMATCH[6]}
		rate=$((secs > 0 ? execs / secs : execs))
		stats="${secs}s $execs execs (${rate}/s)"
	fi
	found=$(grep -oE 'testdata/fuzz/[A-Za-z0-9_]+/[0-9a-f]+' "$log" | sort -u | paste -sd ' ' - || true)
	if [[ $rc == 0 ]]; then
		summary+=("PASS $t $stats")
	elif [[ -z $found ]] && grep -qxE '[[:space:]]+context deadline exceeded' "$log" &&
		! grep -qE '^(panic:|fuzz: minimizing|    fuzzing process hung|.*failure while testing seed corpus)' "$log"; then
		# Go's fuzz coordinator can report its own -fuzztime deadline as
		# a failure when a worker is mid-call as it expires, with no
		# failing input (golang/go#75804, fixed in Go 1.27; seen here on
		# a loaded machine). Reported, not counted as a finding.
		summary+=("FLAKE $t $stats (context deadline exceeded at the -fuzztime boundary, no failing input: golang/go#75804)")
	else
		failed=1
		summary+=("FAIL $t $stats${found:+ failing input: fuzz/$found}")
	fi
done

echo
echo "=== fuzz summary (FUZZTIME=$fuzztime, $(go env GOARCH), $(nproc) CPUs)"
printf '%s\n' "${summary[@]}"
exit $failed
