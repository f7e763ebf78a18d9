#!/usr/bin/env bash
# min-of-runs.sh: the fastest ns/op of each benchmark over interleaved runs
# of several test binaries (an A/B of two builds on a noisy machine).
#
# Usage: bench/scripts/min-of-runs.sh ROUNDS BENCHTIME REGEX BINARY...
#
# Each round runs every BINARY once with -test.bench REGEX and
# -test.benchtime BENCHTIME, in the order given; the output is one line per
# binary and benchmark with the minimum ns/op over the rounds. Run it from
# the package directory the binaries were built for (their tests may read
# testdata). Example, an A/B of the bench package against commit C:
#
#   git worktree add -f /tmp/old C --detach
#   (cd /tmp/old && go test -c -o /tmp/old.test ./bench)
#   go test -c -o /tmp/new.test ./bench
#   cd bench && ../bench/scripts/min-of-runs.sh 10 20000x '^BenchmarkConstruction$' /tmp/old.test /tmp/new.test
set -euo pipefail
if [[ $# -lt 4 ]]; then
	sed -n '2,16p' "$0" >&2
	exit 2
fi
rounds=$1 benchtime=$2 re=$3
shift 3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$rounds"); do
	for b in "$@"; do
		"$b" -test.run '^$' -test.bench "$re" -test.benchtime "$benchtime" 2>/dev/null |
			awk -v B="$(basename "$b")" '/ns\/op/ { print B, $1, $3 }' >>"$out"
	done
done
awk '{ k = $1 " " $2; if (!(k in m) || $3 < m[k]) m[k] = $3 } END { for (k in m) print k, m[k] }' "$out" |
	sort -k2,2 -k1,1
