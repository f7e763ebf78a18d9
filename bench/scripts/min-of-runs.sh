#!/usr/bin/env bash
# min-of-runs.sh: the fastest ns/op of each benchmark over interleaved runs
# of several test binaries (an A/B of two builds on a noisy machine).
#
# Usage: bench/scripts/min-of-runs.sh ROUNDS BENCHTIME REGEX BINARY...
#
# Each round runs every BINARY once with -test.bench REGEX and
# -test.benchtime BENCHTIME, in the order given; the output is one line per
# binary and benchmark with the minimum ns/op over the rounds. Each round
# runs a different one of three copies of each binary: identical files
# have measured up to 18% apart, steadily, on an AMD Zen 5 (bench/README.md,
# "One file, two speeds"), so one copy per side can fake an A/B result.
# Run it from the package directory the binaries were built for (their
# tests may read testdata). Example, an A/B of the bench package against commit C:
#
#   git worktree add -f /tmp/old C --detach
#   (cd /tmp/old && go test -c -o /tmp/old.test ./bench)
#   go test -c -o /tmp/new.test ./bench
#   cd bench && ../bench/scripts/min-of-runs.sh 10 20000x '^BenchmarkConstruction$' /tmp/old.test /tmp/new.test
set -euo pipefail
if [[ $# -lt 4 ]]; then
	sed -n '2,19p' "$0" >&2
	exit 2
fi
rounds=$1 benchtime=$2 re=$3
shift 3
out=$(mktemp)
copies=$(mktemp -d)
trap 'rm -rf "$out" "$copies"' EXIT
n=0
for b in "$@"; do
	n=$((n + 1))
	for c in 0 1 2; do
		cp "$b" "$copies/$n.$c"
	done
done
for r in $(seq "$rounds"); do
	n=0
	for b in "$@"; do
		n=$((n + 1))
		"$copies/$n.$((r % 3))" -test.run '^$' -test.bench "$re" -test.benchtime "$benchtime" 2>/dev/null |
			awk -v B="$(basename "$b")" '/ns\/op/ { print B, $1, $3 }' >>"$out"
	done
done
awk '{ k = $1 " " $2; if (!(k in m) || $3 < m[k]) m[k] = $3 } END { for (k in m) print k, m[k] }' "$out" |
	sort -k2,2 -k1,1
