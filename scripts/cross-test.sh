#!/usr/bin/env bash
# cross-test.sh: run the module's tests under QEMU user-mode emulation for a
# set of GOARCH / CPU-model configurations.
#
# Usage: scripts/cross-test.sh [-run REGEX] [-arch ARCH[,ARCH...]] [-v] [PKG...]
#
#   -run REGEX   only run tests matching REGEX (passed as -test.run)
#   -arch ARCH   only run configurations for these GOARCH values
#                (arm64, amd64, loong64, riscv64, arm, ppc64le, ppc64,
#                s390x; comma-separated or repeated)
#   -v           verbose: print every package's test output
#   PKG...       package patterns, relative to the module root (default ./...)
#
# Environment:
#   CROSS_FULL=1      do not pass -short to the tests
#   CROSS_JOBS=N      test binaries run/built in parallel (default: nproc)
#   CROSS_TIMEOUT=D   per-binary -test.timeout (default 30m)
#   CROSS_HANG=D      kill a binary's run after D and run it once more
#                     (default 10m; qemu user mode can hang a forked child)
#   GOFLAGS           honoured for the builds
#
# Each test binary is compiled once per build configuration (GOARCH plus any
# GO* build variables in the row, e.g. GORISCV64) with "go test -c", and then
# run from its package directory under every CPU model of that configuration
# through scripts/qemu-exec.sh. Prints one summary line per configuration
# ("PASS arm64 cortex-a53 (42s)") and exits non-zero if any failed.
set -euo pipefail

# ---------------------------------------------------------------------------
# Configurations: one per line.
#   GOARCH   QEMU_CPU   [VAR=value ...]
# The VAR=value words are exported to the tests (values must not contain
# spaces). GO* variables among them (GORISCV64, GOARM64, ...) also apply to
# the build; rows with the same GOARCH and GO* variables share test binaries.
CONFIGS=(
	"arm64    cortex-a53   CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=NEON4x1,poly1305=NEON,aead=Go CHACHAKIT_ABSENT=aead/SVE2Stitched"
	"arm64    cortex-a55   CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=NEON4x1,poly1305=NEON,aead=Go CHACHAKIT_ABSENT=aead/SVE2Stitched"
	"arm64    cortex-a57   CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=NEON4x1,poly1305=NEON,aead=NEONStitched CHACHAKIT_ABSENT=aead/SVE2Stitched"
	"arm64    cortex-a72   CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=NEON4x1,poly1305=NEON,aead=NEONStitched CHACHAKIT_ABSENT=aead/SVE2Stitched"
	"arm64    neoverse-n1  CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=NEON6x2,poly1305=NEON,aead=NEONStitched CHACHAKIT_ABSENT=aead/SVE2Stitched"
	"arm64    neoverse-v1  CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=NEON6x2,poly1305=NEON,aead=NEONStitched CHACHAKIT_ABSENT=aead/SVE2Stitched"
	"arm64    max          CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=NEON6x2,poly1305=NEON,aead=NEONStitched"
	"arm64    neoverse-n2  CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=NEON6x2,poly1305=NEON,aead=SVE2Stitched"
	"arm64    cortex-a710  CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=NEON6x2,poly1305=NEON,aead=NEONStitched"
	"arm64    a64fx        CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=NEON6x2,poly1305=NEON,aead=NEONStitched CHACHAKIT_ABSENT=aead/SVE2Stitched"
	"arm64    cortex-a53   GODEBUG=cpu.cpuid=off CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=NEON6x2,poly1305=NEON,aead=NEONStitched CHACHAKIT_ABSENT=aead/SVE2Stitched"
	"amd64    Haswell      CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=AVX2 CHACHAKIT_ABSENT=chacha20/AVX512,aead/AVX512Stitched"
	"amd64    Nehalem      CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=SSSE3 CHACHAKIT_ABSENT=chacha20/AVX512,chacha20/AVX2,poly1305/AVX2,aead/AVX512Stitched,aead/AVX2Stitched"
	"loong64  la464        CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=LASXFused,poly1305=Scalar64"
	"loong64  la464        GODEBUG=cpu.lasx=off CHACHAKIT_STRICT=1 CHACHAKIT_ABSENT=chacha20/LASXFused,chacha20/LASX,subtle/LASX CHACHAKIT_EXPECT=chacha20=LSXFused,poly1305=Scalar64"
	"riscv64  rv64         CHACHAKIT_STRICT=1 CHACHAKIT_ABSENT=chacha20/RVV,subtle/RVV CHACHAKIT_EXPECT=chacha20=Go,poly1305=Scalar64"
	"riscv64  rv64,v=true,vlen=128   CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=RVV,poly1305=Scalar64"
	"riscv64  rv64,v=true,vlen=256   CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=RVV,poly1305=Scalar64"
	"riscv64  rv64,v=true,vlen=1024  CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=RVV,poly1305=Scalar64"
	"riscv64  rva23u64     GORISCV64=rva23u64 CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=RVV,poly1305=Scalar64"
	"ppc64le  power8       CHACHAKIT_STRICT=1 CHACHAKIT_ABSENT=chacha20/VSXPaired CHACHAKIT_EXPECT=chacha20=VSX,poly1305=Scalar64"
	"ppc64le  power9       GOPPC64=power9 CHACHAKIT_STRICT=1 CHACHAKIT_ABSENT=chacha20/VSXPaired CHACHAKIT_EXPECT=chacha20=VSX,poly1305=Scalar64"
	"ppc64le  power10      CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=VSXPaired,poly1305=Scalar64"
	# s390x (big endian): "max" has the vector facility and its enhancements
	# 1 and 2 (z15); with vxeh and vxeh2 off it reports a z13-level vector
	# facility (golang.org/x/sys/cpu sees no VXE), the level the assembly is
	# written for. That row checks the detection and the dispatch only: qemu
	# 10's TCG still executes vector-enhancement instructions then (checked
	# with VNX), so it does not prove that the code avoids them. TCG does not
	# run the named models (z13, z14, gen15a: they list facilities it lacks),
	# and Go needs the vector facility (z13 or later), so the portable path
	# is reached with GODEBUG=cpu.vx=off, which golang.org/x/sys/cpu honours.
	"s390x    max          CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=VX,poly1305=Scalar64"
	"s390x    max,vxeh=off,vxeh2=off  CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=VX,poly1305=Scalar64"
	"s390x    max          GODEBUG=cpu.vx=off CHACHAKIT_STRICT=1 CHACHAKIT_ABSENT=chacha20/VX CHACHAKIT_EXPECT=chacha20=Go,poly1305=Scalar64"
	# 32-bit arm runs the portable code only; big-endian ppc64 the portable
	# ChaCha20 (with the Poly1305 assembly), where every byte order
	# assumption would show.
	"arm      cortex-a15   GOARM=7 CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=Go"
	"ppc64    power9       CHACHAKIT_STRICT=1 CHACHAKIT_EXPECT=chacha20=Go,poly1305=Scalar64"
)
# qemu 10.0 (installed by install-qemu.sh from bookworm-backports) lists the
# "rva23u64" profile CPU in "qemu-riscv64-static -cpu help" (checked). On a
# qemu without it, a row with QEMU_CPU=rva23u64 automatically falls back to
# this explicit feature list instead (V + Zba/Zbb/Zbs, the parts of RVA23
# that Go's GORISCV64=rva23u64 code generation relies on), and says so:
RVA23_FALLBACK_CPU="rv64,v=true,zba=true,zbb=true,zbs=true"
# ---------------------------------------------------------------------------

usage() {
	sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0" >&2
	exit 2
}

run_re=""
arch_filter=""
verbose=0
pkgs=()
while [[ $# -gt 0 ]]; do
	case "$1" in
	-run)
		[[ $# -ge 2 ]] || usage
		run_re=$2
		shift 2
		;;
	-run=*)
		run_re=${1#-run=}
		shift
		;;
	-arch)
		[[ $# -ge 2 ]] || usage
		arch_filter="$arch_filter,$2"
		shift 2
		;;
	-arch=*)
		arch_filter="$arch_filter,${1#-arch=}"
		shift
		;;
	-v) verbose=1; shift ;;
	-h | -help | --help) usage ;;
	--)
		shift
		pkgs+=("$@")
		break
		;;
	-*)
		echo "cross-test.sh: unknown flag $1" >&2
		usage
		;;
	*)
		pkgs+=("$1")
		shift
		;;
	esac
done
[[ ${#pkgs[@]} -gt 0 ]] || pkgs=(./...)

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$script_dir/.." && pwd)
cd "$root"
wrapper="$script_dir/qemu-exec.sh"

jobs_max=${CROSS_JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ $jobs_max -ge 1 ]] || jobs_max=1
timeout=${CROSS_TIMEOUT:-30m}
hang=${CROSS_HANG:-10m}

now() { date +%s; }

# Select configurations.
selected=()
for row in "${CONFIGS[@]}"; do
	read -r arch _ <<<"$row"
	if [[ -n "$arch_filter" && ",$arch_filter," != *",$arch,"* ]]; then
		continue
	fi
	selected+=("$row")
done
if [[ ${#selected[@]} -eq 0 ]]; then
	echo "cross-test.sh: no configuration matches -arch ${arch_filter#,}" >&2
	exit 2
fi

qemu_for() {
	case "$1" in
	arm64) echo qemu-aarch64-static ;;
	loong64) echo qemu-loongarch64-static ;;
	riscv64) echo qemu-riscv64-static ;;
	amd64) echo qemu-x86_64-static ;;
	arm) echo qemu-arm-static ;;
	ppc64le) echo qemu-ppc64le-static ;;
	ppc64) echo qemu-ppc64-static ;;
	s390x) echo qemu-s390x-static ;;
	*) echo "unknown-arch-$1" ;;
	esac
}

# Install qemu if any emulator we need is missing.
for row in "${selected[@]}"; do
	read -r arch _ <<<"$row"
	if ! command -v "$(qemu_for "$arch")" >/dev/null 2>&1; then
		echo "cross-test: $(qemu_for "$arch") not found; running scripts/install-qemu.sh"
		bash "$script_dir/install-qemu.sh"
		break
	fi
done

# CPU models each emulator knows (cached per emulator).
declare -A cpu_help=()
cpu_known() { # qemu cpu
	local q=$1 c=${2%%,*}
	if [[ -z "${cpu_help[$q]:-}" ]]; then
		cpu_help[$q]=" $("$q" -cpu help 2>/dev/null | awk 'NR > 1 || !/:/ { print $1 }' | tr '\n' ' ') "
	fi
	[[ "${cpu_help[$q]}" == *" $c "* ]]
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cross-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

test_flags=(-test.paniconexit0 "-test.timeout=$timeout")
[[ "${CROSS_FULL:-0}" == 1 ]] || test_flags+=(-test.short)
[[ -n "$run_re" ]] && test_flags+=("-test.run=$run_re")
[[ $verbose == 1 ]] && test_flags+=(-test.v)

# Simple job pool: jobs_start CMD... runs CMD in the background, keeping at
# most $jobs_max running; jobs_wait waits for all.
running=0
jobs_start() {
	if [[ $running -ge $jobs_max ]]; then
		wait -n || true
		running=$((running - 1))
	fi
	"$@" &
	running=$((running + 1))
}
jobs_wait() {
	wait || true
	running=0
}

# build_key ROW-ENV...: GOARCH plus the GO* variables, e.g. "riscv64 GORISCV64=rva23u64".
declare -A built=()      # key -> build dir
declare -A build_secs=() # key -> seconds

# build_one DIR IDX IMPORTPATH ENV...: compile one test binary.
build_one() {
	local dir=$1 i=$2 pkg=$3
	shift 3
	if env "$@" go test -c -o "$dir/$i.test" "$pkg" >"$dir/$i.build.log" 2>&1; then
		echo 0 >"$dir/$i.build.rc"
	else
		echo 1 >"$dir/$i.build.rc"
		echo "  BUILD FAIL $pkg"
	fi
}

# build KEY ENV...: list the packages with tests and compile them into a dir.
build() {
	local key=$1
	shift
	local dir="$tmp/build${#built[@]}"
	mkdir -p "$dir"
	built[$key]=$dir
	local t0
	t0=$(now)
	echo "==> build $key"
	# Package list (import path and directory) for this build configuration.
	if ! env "$@" go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{"\t"}}{{.Dir}}{{end}}' "${pkgs[@]}" >"$dir/pkgs.tsv" 2>"$dir/list.log"; then
		cat "$dir/list.log" >&2
		: >"$dir/pkgs.tsv"
		echo 1 >"$dir/list.rc"
	else
		[[ -s "$dir/list.log" ]] && cat "$dir/list.log" >&2
		echo 0 >"$dir/list.rc"
	fi
	local i=0 pkg pdir
	while IFS=$'\t' read -r pkg pdir; do
		[[ -n "$pkg" ]] || continue
		jobs_start build_one "$dir" "$i" "$pkg" "$@"
		i=$((i + 1))
	done <"$dir/pkgs.tsv"
	jobs_wait
	build_secs[$key]=$(($(now) - t0))
	echo "    built $i test binaries (${build_secs[$key]}s)"
}

# run_one LOGDIR IDX PKG PKGDIR BIN ENV...: run one test binary under qemu.
run_one() {
	local logdir=$1 i=$2 pkg=$3 pdir=$4 bin=$5
	shift 5
	local t0 rc=0 note=""
	t0=$(date +%s.%N)
	# qemu user mode can deadlock in a forked child (a test that runs its
	# own binary again): a run that outlives $hang is killed with its
	# process group and tried once more.
	timeout -k 30s "$hang" bash -c 'cd "$1" && shift && exec env "$@"' _ "$pdir" "$@" "$wrapper" "$bin" "${test_flags[@]}" >"$logdir/$i.log" 2>&1 </dev/null || rc=$?
	if [[ $rc == 124 || $rc == 137 ]]; then
		note=" (hung past $hang under qemu, killed; second run)"
		rc=0
		timeout -k 30s "$hang" bash -c 'cd "$1" && shift && exec env "$@"' _ "$pdir" "$@" "$wrapper" "$bin" "${test_flags[@]}" >"$logdir/$i.log" 2>&1 </dev/null || rc=$?
	fi
	echo "$rc" >"$logdir/$i.rc"
	local secs
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1fs", b - a }')
	if [[ $rc == 0 ]]; then
		printf '  ok   %-50s %s%s\n' "$pkg" "$secs" "$note"
	else
		printf '  FAIL %-50s %s (exit %s)%s\n' "$pkg" "$secs" "$rc" "$note"
	fi
}

summary=()
failed=0
n=0
t_all=$(now)
for row in "${selected[@]}"; do
	n=$((n + 1))
	read -r -a words <<<"$row"
	arch=${words[0]}
	cpu=${words[1]}
	extra=("${words[@]:2}")
	qemu=$(qemu_for "$arch")

	gotvars=()
	for kv in "${extra[@]}"; do
		[[ "$kv" == GO* ]] && gotvars+=("$kv")
	done

	if [[ "$cpu" == rva23u64 ]] && ! cpu_known "$qemu" rva23u64; then
		echo "cross-test: $qemu has no rva23u64 CPU model; using $RVA23_FALLBACK_CPU"
		cpu=$RVA23_FALLBACK_CPU
	fi
	label="$arch $cpu"
	[[ ${#gotvars[@]} -gt 0 ]] && label="$label ${gotvars[*]}"

	buildenv=(GOOS=linux "GOARCH=$arch" CGO_ENABLED=0 "${gotvars[@]}")
	key="$arch ${gotvars[*]}"
	key=${key% }
	[[ -n "${built[$key]:-}" ]] || build "$key" "${buildenv[@]}"
	dir=${built[$key]}

	echo "==> test $label"
	t0=$(now)
	ok=1
	if [[ $(cat "$dir/list.rc") != 0 ]]; then
		ok=0
	fi
	if ! command -v "$qemu" >/dev/null 2>&1; then
		echo "  $qemu not installed"
		ok=0
	elif ! cpu_known "$qemu" "$cpu"; then
		echo "  $qemu does not know CPU model '${cpu%%,*}' (see: $qemu -cpu help)"
		ok=0
	else
		logdir="$tmp/run$n"
		mkdir -p "$logdir"
		runenv=("${extra[@]}" "GOARCH=$arch" "QEMU_CPU=$cpu")
		i=0
		while IFS=$'\t' read -r pkg pdir; do
			[[ -n "$pkg" ]] || continue
			if [[ $(cat "$dir/$i.build.rc") == 0 ]]; then
				jobs_start run_one "$logdir" "$i" "$pkg" "$pdir" "$dir/$i.test" "${runenv[@]}"
			fi
			i=$((i + 1))
		done <"$dir/pkgs.tsv"
		jobs_wait
		[[ $i -gt 0 ]] || echo "  (no packages with tests)"
		# Print logs in package order: failures always, everything with -v.
		i=0
		while IFS=$'\t' read -r pkg pdir; do
			[[ -n "$pkg" ]] || continue
			if [[ $(cat "$dir/$i.build.rc") != 0 ]]; then
				ok=0
				echo "--- build $pkg ($key):"
				sed 's/^/    /' "$dir/$i.build.log"
			elif [[ $(cat "$logdir/$i.rc") != 0 ]]; then
				ok=0
				echo "--- FAIL $pkg ($label):"
				sed 's/^/    /' "$logdir/$i.log"
			elif [[ $verbose == 1 ]]; then
				echo "--- ok $pkg ($label):"
				sed 's/^/    /' "$logdir/$i.log"
			fi
			i=$((i + 1))
		done <"$dir/pkgs.tsv"
	fi
	secs=$(($(now) - t0))
	if [[ $ok == 1 ]]; then
		line="PASS $label (${secs}s)"
	else
		line="FAIL $label (${secs}s)"
		failed=1
	fi
	echo "$line"
	summary+=("$line")
done

echo
echo "cross-test summary ($(($(now) - t_all))s total; builds:$(for k in "${!build_secs[@]}"; do printf ' [%s] %ss' "$k" "${build_secs[$k]}"; done)):"
printf '%s\n' "${summary[@]}"
exit "$failed"
