#!/usr/bin/env bash
# consumers.sh: end-to-end benchmarks of programs that use ChaCha20-Poly1305
# through golang.org/x/crypto or crypto/tls, each built twice, as published
# (x/crypto) and with chachakit swapped in, and run in interleaved rounds.
#
# Usage: bench/scripts/consumers.sh [-rounds R] [-quick] [-only NAME[,NAME...]] [-keep DIR]
#
#   -rounds R   rounds per consumer (default 7); each round runs both
#               variants, x/crypto first in odd rounds, chachakit first in
#               even ones
#   -quick      a smoke run: 2 rounds (unless -rounds), small sizes, few
#               repetitions
#   -only NAMES only these consumers: tls, ssh, quic, wireguard, age
#   -keep DIR   build in DIR and leave the trees, binaries and raw results
#               (results.txt) there; otherwise a temporary directory,
#               removed at exit
#
# Consumers and what one number is (all but wireguard are timed inside the
# process around the transfer phase alone, after process start, key
# generation, handshake and one untimed warm-up; CPU time is user+sys of
# the whole process from getrusage, all goroutines and the GC included):
#
#   tls        cmd/chachakit/internal/tlsprobe -keyupdate=false -reps N: a
#              crypto/tls client and server over loopback TCP, -size bytes
#              each way at once per transfer; built plain and with the
#              "chachakit overlay" file (crypto/tls's vendored
#              chacha20poly1305 sent to chachakit), run with
#              GODEBUG=cpu.aes=off so that TLS_CHACHA20_POLY1305_SHA256 is
#              negotiated (the probe fails otherwise). ms per transfer.
#   ssh        bench/consumers/sshxfer: x/crypto/ssh server and client over
#              loopback TCP, chacha20-poly1305@openssh.com only, one session
#              channel, client to server: bulk (1 MiB in 32 KiB writes) and
#              small (32-byte writes, one packet each). ms per transfer. The
#              swap changes ssh's ChaCha20 only: its Poly1305 is x/crypto's
#              internal/poly1305 in both variants.
#   quic       bench/consumers/quicxfer: quic-go server and client over
#              loopback UDP, one stream of -size bytes per transfer, run
#              with GODEBUG=cpu.aes=off; the program fails unless both ends
#              negotiated TLS_CHACHA20_POLY1305_SHA256. ms per transfer.
#   wireguard  wireguard-go's BenchmarkThroughput (./device: two devices
#              joined by in-memory TUNs and a loopback bind, small ICMP
#              packets sent as fast as the receiver takes them), run from
#              test binaries with -test.benchtime Nx. CPU: user+sys of the
#              whole test binary from the kernel (bench/consumers/rusage:
#              process start, device setup and the b.N=1 warm-up run
#              included, and packets sent but dropped) divided by N. Wall:
#              the benchmark's own ns/op (first packet received to the Nth).
#              us per packet.
#   age        bench/consumers/agexfer: filippo.io/age to one X25519
#              recipient, in memory, encrypt and decrypt timed separately.
#              ms per operation.
#
# ssh, quic and age are programs of the nested module bench/consumers,
# whose go.mod pins x/crypto, quic-go, age and wireguard-go. The script
# copies that module and runs "chachakit swap -modfile" in the copy, so one
# tree builds both variants: go build (x/crypto) and go build
# -modfile=go.chachakit.mod (chachakit). wireguard-go is copied out of the
# module cache at the version bench/consumers/go.mod pins and swapped the
# same way. Each chachakit binary is checked to contain chachakit and each
# x/crypto one not to.
#
# The table at the end gives, per consumer, the medians over the rounds of
# CPU and wall time per operation for each variant and the ratio
# x/crypto / chachakit (above 1: chachakit is faster), with the CPU, the
# commit, the load average and the command line.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mod=$root/bench/consumers
cmdline="bench/scripts/consumers.sh${*:+ $*}"

all=(tls ssh quic wireguard age)

export GOWORK=off
export GOTOOLCHAIN=local

rounds=""
quick=false
keep=""
only=("${all[@]}")
while [[ $# -gt 0 ]]; do
	case $1 in
	-rounds)
		rounds=${2:?-rounds needs a number}
		shift 2
		;;
	-quick)
		quick=true
		shift
		;;
	-only)
		IFS=, read -r -a only <<<"${2:?-only needs consumer names}"
		shift 2
		;;
	-keep)
		keep=${2:?-keep needs a directory}
		shift 2
		;;
	-h | -help | --help)
		sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "consumers.sh: unknown argument $1 (see -h)" >&2
		exit 2
		;;
	esac
done
for c in "${only[@]}"; do
	case " ${all[*]} " in
	*" $c "*) ;;
	*)
		echo "consumers.sh: unknown consumer $c (consumers: ${all[*]})" >&2
		exit 2
		;;
	esac
done
if [[ -z "$rounds" ]]; then
	rounds=7
	$quick && rounds=2
fi
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
	echo "consumers.sh: -rounds must be a positive number" >&2
	exit 2
fi

# Sizes and repetitions: each timed phase lasts a few tenths of a second
# on the machines this was written on, far above getrusage's resolution.
if $quick; then
	tls_small=(-size 1048576 -reps 16)
	tls_large=(-size 4194304 -reps 2)
	ssh_args=(-size 1048576 -chunks 1024 -reps 8)
	quic_args=(-size 4194304 -reps 2)
	age_args=(-size 4194304 -reps 4)
	wg_packets=20000
else
	tls_small=(-size 1048576 -reps 256)
	tls_large=(-size 16777216 -reps 16)
	ssh_args=(-size 1048576 -chunks 4096 -reps 128)
	quic_args=(-size 16777216 -reps 12)
	age_args=(-size 16777216 -reps 48)
	wg_packets=200000
fi

selected() { [[ " ${only[*]} " == *" $1 "* ]]; }

if [[ -n "$keep" ]]; then
	mkdir -p "$keep"
	work=$(cd "$keep" && pwd)
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
bin=$work/bin
mkdir -p "$bin"
results=$work/results.txt
: >"$results"

now() { date +%s; }
t_start=$(now)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# The variants: x is as published (golang.org/x/crypto, or crypto/tls's
# vendored copy of it), kit is with chachakit.
variants=(x kit)

echo "=== build"
(cd "$root" && go build -o "$bin/chachakit" ./cmd/chachakit)
(cd "$mod" && go build -o "$bin/rusage" ./rusage)

# has_kit BIN: whether the Go binary BIN lists chachakit among its modules.
# (grep reads all of its input in these checks, -c not -q: under pipefail a
# writer cut off by an early exit of grep -q would make the check fail.)
has_kit() { [[ $(go version -m "$1" | grep -c -E '^[[:space:]]+dep[[:space:]]+github\.com/chachakit/chachakit[[:space:]]') != 0 ]]; }

# check_kit NAME VARIANT BIN: fail unless BIN contains chachakit exactly
# when VARIANT is kit. ok is a function BIN that says whether it does.
check_kit() {
	local name=$1 variant=$2 file=$3 ok=$4 has=false
	"$ok" "$file" && has=true
	if [[ $variant == kit && $has == false ]] || [[ $variant == x && $has == true ]]; then
		echo "consumers.sh: $name ($variant): chachakit in the binary is $has, want the opposite" >&2
		exit 1
	fi
}

if selected tls; then
	echo "+ tlsprobe, plain and with the overlay"
	"$bin/chachakit" overlay -o "$work/overlay.json" >/dev/null
	(cd "$root" && go build -o "$bin/tls-x" ./cmd/chachakit/internal/tlsprobe)
	(cd "$root" && go build -overlay="$work/overlay.json" -o "$bin/tls-kit" ./cmd/chachakit/internal/tlsprobe)
	# Both are built in chachakit's module, so the module list says
	# nothing; what tells them apart is whether the vendored package's own
	# AEAD (its Seal method) is linked in.
	vendored_aead() { [[ $(go tool nm "$1" | grep -c 'vendor/golang.org/x/crypto/chacha20poly1305\.(\*chacha20poly1305)\.Seal$') == 0 ]]; }
	for v in "${variants[@]}"; do check_kit tls "$v" "$bin/tls-$v" vendored_aead; done
fi

if selected ssh || selected quic || selected age; then
	echo "+ bench/consumers, copied and swapped with -modfile"
	rm -rf "$work/consumers"
	cp -R "$mod" "$work/consumers"
	(cd "$work/consumers" && "$bin/chachakit" swap -modfile -chachakit "$root" >/dev/null)
	for p in sshxfer quicxfer agexfer; do
		selected "${p%xfer}" || continue
		(cd "$work/consumers" && go build -o "$bin/$p-x" "./$p")
		(cd "$work/consumers" && go build -modfile=go.chachakit.mod -o "$bin/$p-kit" "./$p")
		for v in "${variants[@]}"; do check_kit "$p" "$v" "$bin/$p-$v" has_kit; done
	done
fi

if selected wireguard; then
	wg_module=golang.zx2c4.com/wireguard
	wg_version=$(cd "$mod" && go list -m -f '{{.Version}}' "$wg_module")
	echo "+ $wg_module@$wg_version ./device test binaries, swapped with -modfile"
	wg_src=$(cd "$mod" && go mod download -json "$wg_module@$wg_version" |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	rm -rf "$work/wireguard"
	cp -R "$wg_src" "$work/wireguard"
	chmod -R u+w "$work/wireguard"
	(cd "$work/wireguard" && "$bin/chachakit" swap -modfile -chachakit "$root" >/dev/null)
	(cd "$work/wireguard" && go test -c -o "$bin/wg-x.test" ./device)
	(cd "$work/wireguard" && go test -c -modfile=go.chachakit.mod -o "$bin/wg-kit.test" ./device)
	# Test binaries carry no module list: look for chachakit's aead.
	kit_symbols() { [[ $(go tool nm "$1" | grep -c 'github.com/chachakit/chachakit/aead\.') != 0 ]]; }
	for v in "${variants[@]}"; do check_kit wireguard "$v" "$bin/wg-$v.test" kit_symbols; done
fi
t_built=$(now)
echo "=== built in $((t_built - t_start))s"

# record CASE UNIT VARIANT ROUND CPU WALL: one result line.
record() {
	printf '%s %s %s %s %s %s\n' "$@" >>"$results"
	printf '  %-22s %-3s round %s: cpu %s wall %s (%s)\n' "$1" "$3" "$4" "$5" "$6" "$2"
}

# phase_results PREFIX UNIT VARIANT ROUND: record each "result NAME ops=N
# cpu-ms=X wall-ms=Y" line (package phase) of standard input as the case
# PREFIX-NAME.
phase_results() {
	local line n=0
	while read -r line; do
		if [[ $line =~ ^result\ ([^ ]+)\ ops=[0-9]+\ cpu-ms=([0-9.]+)\ wall-ms=([0-9.]+)$ ]]; then
			record "$1-${BASH_REMATCH[1]}" "$2" "$3" "$4" "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}"
			n=$((n + 1))
		fi
	done
	[[ $n -gt 0 ]] || {
		echo "consumers.sh: $1 ($3) printed no result" >&2
		return 1
	}
}

# run_tls VARIANT ROUND: both tlsprobe cases.
run_tls() {
	local args out line
	for args in "${tls_small[*]}" "${tls_large[*]}"; do
		# shellcheck disable=SC2086 # args is a word list on purpose
		out=$(GODEBUG=${GODEBUG:+$GODEBUG,}cpu.aes=off "$bin/tls-$1" -keyupdate=false $args)
		line=$(grep '^rusage ' <<<"$out")
		if ! [[ $line =~ each-way=([0-9]+)\ cpu-ms=([0-9.]+)\ wall-ms=([0-9.]+)$ ]]; then
			echo "consumers.sh: tlsprobe printed no rusage line:" >&2
			printf '%s\n' "$out" >&2
			return 1
		fi
		record "tls-each-way-${BASH_REMATCH[1]}" ms "$1" "$2" "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}"
	done
}

run_ssh() { "$bin/sshxfer-$1" "${ssh_args[@]}" | phase_results ssh ms "$1" "$2"; }
run_quic() {
	GODEBUG=${GODEBUG:+$GODEBUG,}cpu.aes=off "$bin/quicxfer-$1" "${quic_args[@]}" |
		phase_results quic ms "$1" "$2"
}
run_age() { "$bin/agexfer-$1" "${age_args[@]}" | phase_results age ms "$1" "$2"; }

# run_wireguard VARIANT ROUND: BenchmarkThroughput for wg_packets packets.
run_wireguard() {
	local out ns cpu
	out=$(cd "$work/wireguard/device" && "$bin/rusage" "$bin/wg-$1.test" -test.run '^$' \
		-test.bench '^BenchmarkThroughput$' -test.benchtime "${wg_packets}x" 2>&1)
	ns=$(sed -n 's/^BenchmarkThroughput[^ ]*[[:space:]]\{1,\}[0-9]\{1,\}[[:space:]]\{1,\}\([0-9.]\{1,\}\) ns\/op.*/\1/p' <<<"$out")
	cpu=$(sed -n 's/^rusage cpu-ms=\([0-9.]*\) .*/\1/p' <<<"$out")
	if [[ -z "$ns" || -z "$cpu" ]]; then
		echo "consumers.sh: wireguard ($1): no benchmark result:" >&2
		printf '%s\n' "$out" >&2
		return 1
	fi
	record "wireguard-throughput" us "$1" "$2" \
		"$(awk -v c="$cpu" -v n="$wg_packets" 'BEGIN { printf "%.4f", c * 1000 / n }')" \
		"$(awk -v ns="$ns" 'BEGIN { printf "%.4f", ns / 1000 }')"
}

declare -A load_during
for c in "${only[@]}"; do
	echo "=== $c: $rounds rounds"
	for ((r = 1; r <= rounds; r++)); do
		if ((r % 2 == 1)); then order=(x kit); else order=(kit x); fi
		for v in "${order[@]}"; do
			"run_$c" "$v" "$r"
		done
	done
	load_during[$c]=$(cut -d' ' -f1 /proc/loadavg)
done
t_end=$(now)

# The table: medians per case and variant, and their ratios.
cpu_model=$(grep -m1 'model name' /proc/cpuinfo | sed 's/^[^:]*:[[:space:]]*//')
cpu_family=$(grep -m1 '^cpu family' /proc/cpuinfo | sed 's/^[^:]*:[[:space:]]*//')
cpu_modelno=$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | sed 's/^[^:]*:[[:space:]]*//')
cpu_stepping=$(grep -m1 '^stepping' /proc/cpuinfo | sed 's/^[^:]*:[[:space:]]*//')
commit=$(cd "$root" && git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# Uncommitted changes that can reach the measured binaries: Go and
# assembly sources and module files, but not tests or the bench command.
dirty=$(git -C "$root" diff --name-only HEAD -- '*.go' '*.s' '*.mod' '*.sum' 2>/dev/null |
	{ grep -v -E '_test\.go$|^bench/[^/]*\.go$' || true; })
if [[ -n "$dirty" ]]; then
	commit="$commit, with uncommitted changes to $(printf '%s\n' "$dirty" | paste -sd, - | sed 's/,/, /g')"
fi

echo
echo "Consumers, end to end: $(date -u '+%Y-%m-%d %H:%M UTC'), $(go env GOVERSION) $(go env GOOS)/$(go env GOARCH)"
echo
echo "- CPU: $cpu_model (family $cpu_family, model $cpu_modelno, stepping $cpu_stepping), $(nproc) CPUs"
echo "- commit: $commit"
echo "- command: \`$cmdline\` (rounds: $rounds)"
echo "- load average (1, 5, 15 min) at the start: $load_start; 1-min after each consumer:$(for c in "${only[@]}"; do printf ' %s %s' "$c" "${load_during[$c]}"; done)"
echo "- time: build $((t_built - t_start))s, rounds $((t_end - t_built))s"
echo
echo "Medians over the rounds, per operation; ratio = x/crypto / chachakit (above 1: chachakit is faster);"
echo "the range is the lowest and highest of the rounds' own CPU ratios (each round's x/crypto run over its chachakit run)."
echo
echo "| case | unit | CPU x/crypto | CPU chachakit | CPU ratio | range | wall x/crypto | wall chachakit | wall ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
# median CASE VARIANT FIELD: the median of a column of results.txt
# (5: CPU, 6: wall) for one case and variant.
median() {
	awk -v c="$1" -v v="$2" -v f="$3" '$1 == c && $3 == v { print $f }' "$results" | sort -g |
		awk '{ a[NR] = $1 } END { if (NR == 0) exit 1; m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.4g", m }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
# ratio_range CASE: the lowest and highest CPU ratio of a single round.
ratio_range() {
	awk -v c="$1" '$1 == c { t[$4, $3] = $5; r[$4] = 1 }
		END {
			for (i in r) if (t[i, "kit"] > 0) {
				q = t[i, "x"] / t[i, "kit"]
				if (n++ == 0 || q < lo) lo = q
				if (n == 1 || q > hi) hi = q
			}
			printf "%.2f-%.2f", lo, hi
		}' "$results"
}
while read -r c unit; do
	cx=$(median "$c" x 5)
	ck=$(median "$c" kit 5)
	wx=$(median "$c" x 6)
	wk=$(median "$c" kit 6)
	echo "| $c | $unit | $cx | $ck | $(ratio "$cx" "$ck") | $(ratio_range "$c") | $wx | $wk | $(ratio "$wx" "$wk") |"
done < <(awk '!seen[$1]++ { print $1, $2 }' "$results")
if [[ -n "$keep" ]]; then
	echo
	echo "raw results (case unit variant round cpu wall): $results"
fi
