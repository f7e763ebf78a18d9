#!/usr/bin/env bash
# consumers.sh: run the test suites of programs that use
# golang.org/x/crypto/chacha20 and chacha20poly1305 with those packages
# swapped for chachakit by "chachakit swap".
#
# Usage: scripts/consumers.sh [-keep DIR] [-prepare-only] [-baseline] [-only NAME[,NAME...]]
#
#   -keep DIR       prepare the trees in DIR and leave them there (see "Trees")
#   -prepare-only   prepare the trees, run no tests (with -keep: for benchmarks)
#   -baseline       also run each row on the unswapped tree, to compare counts
#   -only NAMES     only these rows: xcrypto, quic, wireguard, age
#
# Rows (each consumer at a pinned version, fetched through the module proxy):
#
#   xcrypto    golang.org/x/crypto itself: go test ./chacha20 ./chacha20poly1305
#              ./ssh/... inside the replacement that swap writes for a small
#              module requiring x/crypto (x/crypto's own test files are kept
#              there). All of them: they are what the swapped packages were
#              written against. ssh/test talks to OpenSSH: its ssh-client
#              tests run as any user; its sshd tests skip as root, so when
#              the script runs as root it installs openssh-server if missing
#              (only where policy-rc.d keeps the package from starting a
#              listening sshd) and runs ssh/test as an unprivileged system
#              user, chachakit-ssh (created if missing, no usable password).
#              There TestValidTerminalMode is skipped: sshd run by a non-root
#              user cannot chown a pty in this sandbox, swapped or not.
#   quic       github.com/quic-go/quic-go: ./internal/handshake (packet and
#              header protection, the only package that imports x/crypto's
#              chacha20 and chacha20poly1305, with key updates and test
#              vectors per cipher suite) and ./internal/qtls, whole; then
#              ./integrationtests/self, whole (it runs on a simulated network
#              in seconds) with GODEBUG=cpu.aes=off, under which crypto/tls
#              prefers TLS_CHACHA20_POLY1305_SHA256 on both ends, so every
#              connection uses ChaCha20 for packets and headers. The two
#              subtests that pin an AES suite on purpose are skipped, and a
#              test added to the copy checks that a default connection really
#              negotiated ChaCha20-Poly1305.
#   wireguard  golang.zx2c4.com/wireguard: ./device, whole (it runs in a
#              second; every packet in it is sealed and opened with
#              chacha20poly1305).
#   age        filippo.io/age: ./... with -short. Without -short,
#              internal/stream's iotest.TestReader subtests on long inputs
#              take minutes (quadratic re-reads); -short skips only those and
#              keeps every round trip of the STREAM construction.
#
# Each row first proves the swap is in effect (go list shows x/crypto's
# chacha20poly1305 importing chachakit's aead and chacha20 importing
# chachakit's chacha20; in an unswapped tree, neither), runs its tests with go test -json, prints
# "NAME: N passed, N failed, N skipped", and names every failing test. Then,
# in the swapped xcrypto consumer, "go test -run '^$'" over the packages of
# "all" outside the standard library must build: it compiles their tests,
# chachakit's included.
# Exits non-zero if anything failed.
#
# Trees: DIR/NAME/plain is the consumer as published, DIR/NAME/swapped a
# copy of it after "chachakit swap". For xcrypto, DIR/xcrypto/swapped is the
# small consumer module and the tests run in its .chachakit/x-crypto;
# DIR/xcrypto/plain is x/crypto itself. Both quic trees hold the added
# cipher-suite test (integrationtests/self/chachakit_suite_test.go). The
# go test -json logs go to DIR/logs. Without -keep the trees go to a
# temporary directory that is removed at exit.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Pinned consumers. wireguard-go has no tagged releases: this is the newest
# pseudo-version the proxy served when it was pinned.
xcrypto_version=v0.59.0
quic_module=github.com/quic-go/quic-go
quic_version=v0.66.0
wireguard_module=golang.zx2c4.com/wireguard
wireguard_version=v0.0.0-20260522210424-ecfc5a8d5446
age_module=filippo.io/age
age_version=v1.3.2

all_rows=(xcrypto quic wireguard age)

# The consumers are outside this module; never pick up a go.work, and never
# switch toolchains because a consumer's go.mod names a newer one.
export GOWORK=off
export GOTOOLCHAIN=local

keep=""
prepare_only=false
baseline=false
rows=("${all_rows[@]}")
while [[ $# -gt 0 ]]; do
	case $1 in
	-keep)
		keep=${2:?-keep needs a directory}
		shift 2
		;;
	-prepare-only)
		prepare_only=true
		shift
		;;
	-baseline)
		baseline=true
		shift
		;;
	-only)
		IFS=, read -r -a rows <<<"${2:?-only needs row names}"
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
for r in "${rows[@]}"; do
	case " ${all_rows[*]} " in
	*" $r "*) ;;
	*)
		echo "consumers.sh: unknown row $r (rows: ${all_rows[*]})" >&2
		exit 2
		;;
	esac
done

if [[ -n "$keep" ]]; then
	mkdir -p "$keep"
	work=$(cd "$keep" && pwd)
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
logs=$work/logs
mkdir -p "$logs"

# now prints seconds since the epoch, for the per-row times.
now() { date +%s; }

# module_dir MODULE VERSION: download MODULE@VERSION through the module proxy
# and print its directory in the module cache.
module_dir() {
	local dir
	dir=$(go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	if [[ -z "$dir" || ! -d "$dir" ]]; then
		echo "consumers.sh: go mod download $1@$2 gave no directory" >&2
		return 1
	fi
	printf '%s\n' "$dir"
}

# copy_module MODULE VERSION DEST: a writable copy of MODULE@VERSION at DEST
# (module cache files are read-only).
copy_module() {
	local src
	src=$(module_dir "$1" "$2")
	rm -rf "$3"
	cp -R "$src" "$3"
	chmod -R u+w "$3"
}

kit_bin=""
# build_kit: build the chachakit command of this checkout once.
build_kit() {
	if [[ -z "$kit_bin" ]]; then
		mkdir -p "$work/bin"
		(cd "$root" && go build -o "$work/bin/chachakit" ./cmd/chachakit)
		kit_bin=$work/bin/chachakit
	fi
}

# swap DIR: chachakit swap in the module at DIR, against this checkout.
swap() {
	build_kit
	(cd "$1" && "$kit_bin" swap -chachakit "$root")
}

# prepare_pair NAME MODULE VERSION [EDIT]: DIR/NAME/plain, the consumer as
# published (then changed by the function EDIT, if given, run in it), and
# DIR/NAME/swapped, a copy of plain after chachakit swap. The one preparation
# behind every row but xcrypto.
prepare_pair() {
	local name=$1 module=$2 version=$3 edit=${4:-}
	local d=$work/$name
	rm -rf "$d"
	mkdir -p "$d"
	copy_module "$module" "$version" "$d/plain"
	if [[ -n "$edit" ]]; then
		(cd "$d/plain" && "$edit")
	fi
	cp -R "$d/plain" "$d/swapped"
	swap "$d/swapped"
}

prepare_xcrypto() {
	local d=$work/xcrypto
	rm -rf "$d"
	mkdir -p "$d/swapped"
	copy_module golang.org/x/crypto "$xcrypto_version" "$d/plain"
	# The small consumer: a module that requires x/crypto at the pinned
	# version and imports the two swapped packages and ssh.
	cat >"$d/swapped/go.mod" <<-EOF
		module chachakit.example/xcrypto

		go 1.26

		require golang.org/x/crypto $xcrypto_version
	EOF
	cat >"$d/swapped/main.go" <<-'EOF'
		package main

		import (
			_ "golang.org/x/crypto/chacha20"
			_ "golang.org/x/crypto/chacha20poly1305"
			_ "golang.org/x/crypto/ssh"
		)

		func main() {}
	EOF
	# go.sum for x/crypto and its requirements, from x/crypto's own go.sum.
	(cd "$d/swapped" && go mod download -json "golang.org/x/crypto@$xcrypto_version" >/dev/null &&
		go list -mod=mod -deps ./... >/dev/null)
	swap "$d/swapped"
}

# quic_chacha_check: a test in quic-go's integration suite that fails unless
# a connection made with the suite's default configurations negotiates
# TLS_CHACHA20_POLY1305_SHA256 on both ends; it proves the GODEBUG forcing.
quic_chacha_check() {
	cat >integrationtests/self/chachakit_suite_test.go <<-'EOF'
		package self_test

		import (
			"context"
			"crypto/tls"
			"testing"
			"time"

			"github.com/quic-go/quic-go"
		)

		// Added by chachakit's scripts/consumers.sh.
		func TestChachakitSuiteIsChaCha20(t *testing.T) {
			ln, err := quic.Listen(newUDPConnLocalhost(t), getTLSConfig(), getQuicConfig(nil))
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			conn, err := quic.Dial(ctx, newUDPConnLocalhost(t), ln.Addr(), getTLSClientConfig(), getQuicConfig(nil))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.CloseWithError(0, "")
			server, err := ln.Accept(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer server.CloseWithError(0, "")
			for side, c := range map[string]*quic.Conn{"client": conn, "server": server} {
				if got := c.ConnectionState().TLS.CipherSuite; got != tls.TLS_CHACHA20_POLY1305_SHA256 {
					t.Errorf("%s negotiated %s, want TLS_CHACHA20_POLY1305_SHA256", side, tls.CipherSuiteName(got))
				}
			}
		}
	EOF
}

prepare_quic() { prepare_pair quic "$quic_module" "$quic_version" quic_chacha_check; }
prepare_wireguard() { prepare_pair wireguard "$wireguard_module" "$wireguard_version"; }
prepare_age() { prepare_pair age "$age_module" "$age_version"; }

# tree_dir NAME VARIANT: the directory in which a row's tests run.
tree_dir() {
	if [[ $1 == xcrypto && $2 == swapped ]]; then
		printf '%s\n' "$work/xcrypto/swapped/.chachakit/x-crypto"
	else
		printf '%s\n' "$work/$1/$2"
	fi
}

# check_swap NAME VARIANT: in a swapped tree, x/crypto's chacha20poly1305 and
# chacha20 must import chachakit; in a plain tree they must not.
check_swap() {
	local dir imports
	dir=$(tree_dir "$1" "$2")
	imports=$(cd "$dir" && go list -f '{{.ImportPath}}: {{join .Imports " "}}' \
		golang.org/x/crypto/chacha20poly1305 golang.org/x/crypto/chacha20)
	printf '%s\n' "$imports" | sed 's/^/  /'
	local n
	n=$(grep -c -E ': .*github\.com/chachakit/chachakit/(aead|chacha20)( |$)' <<<"$imports" || true)
	if [[ $2 == swapped && $n != 2 ]]; then
		echo "FAIL $1: the swap is not in effect (x/crypto's packages do not import chachakit)"
		return 1
	fi
	if [[ $2 == plain && $n != 0 ]]; then
		echo "FAIL $1: the unswapped tree imports chachakit"
		return 1
	fi
}

# gotest LOG ARGS...: go test -json -count=1 ARGS..., the events appended to
# LOG; a failed run is reported through the events, not the exit status.
gotest() {
	local log=$1
	shift
	echo "+ go test -json -count=1 $*"
	go test -json -count=1 "$@" >>"$log" 2>&1 || true
}

# ssh_user: the unprivileged user that runs x/crypto's ssh/test, with sshd
# installed; prints nothing (and the sshd tests skip) if either cannot be had.
ssh_user() {
	local user=chachakit-ssh
	if [[ $(id -u) != 0 ]] || ! command -v setpriv >/dev/null 2>&1; then
		return 0
	fi
	if ! PATH="$PATH:/usr/sbin:/sbin" command -v sshd >/dev/null 2>&1; then
		# The image's policy-rc.d keeps the package's service from starting;
		# without it an install would start a listening sshd, so do without.
		if [[ ! -x /usr/sbin/policy-rc.d ]] || ! command -v apt-get >/dev/null 2>&1; then
			echo "  no sshd and no safe way to install it: ssh/test's sshd tests skip" >&2
			return 0
		fi
		echo "+ apt-get install -y --no-install-recommends openssh-server" >&2
		if ! { DEBIAN_FRONTEND=noninteractive apt-get -q -o Acquire::Retries=3 install -y --no-install-recommends openssh-server ||
			{ apt-get -q -o Acquire::Retries=3 update &&
				DEBIAN_FRONTEND=noninteractive apt-get -q -o Acquire::Retries=3 install -y --no-install-recommends openssh-server; }; } >&2; then
			echo "  openssh-server could not be installed: ssh/test's sshd tests skip" >&2
			return 0
		fi
	fi
	if ! id "$user" >/dev/null 2>&1; then
		# sshd refuses locked accounts ("!" or "*"), so the password field
		# holds a string that is no crypt hash: nothing can log in with it.
		if ! useradd --system --user-group --no-create-home --home-dir /nonexistent \
			--shell /bin/sh --password no-password-matches-this "$user" >&2; then
			echo "  user $user could not be created: ssh/test's sshd tests skip" >&2
			return 0
		fi
	fi
	printf '%s\n' "$user"
}

# ssh_test DIR LOG: x/crypto's ssh/test from the module at DIR, as the
# unprivileged user when there is one, its events appended to LOG.
ssh_test() {
	local dir=$1 log=$2 user
	user=$(ssh_user)
	if [[ -z "$user" ]]; then
		(cd "$dir" && gotest "$log" ./ssh/test)
		return
	fi
	# A world-readable place for the test binary and the files it reads
	# (../testdata), and the user's own HOME and TMPDIR.
	local u
	u=$(mktemp -d)
	chmod 755 "$u"
	mkdir -p "$u/ssh/test" "$u/home" "$u/tmp"
	cp -R "$dir/ssh/testdata" "$u/ssh/testdata"
	chown "$user" "$u/home" "$u/tmp"
	echo "+ go test -c ./ssh/test; run as $user"
	if ! (cd "$dir" && go test -c -o "$u/ssh/test/test.test" ./ssh/test) >>"$log" 2>&1; then
		echo "{\"Action\":\"fail\",\"Package\":\"golang.org/x/crypto/ssh/test\",\"Output\":\"build failed\"}" >>"$log"
		rm -rf "$u"
		return
	fi
	chmod -R a+rX "$u/ssh"
	(cd "$u/ssh/test" && go tool test2json -t -p golang.org/x/crypto/ssh/test \
		setpriv --reuid="$user" --regid="$user" --clear-groups \
		env -i PATH="/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" HOME="$u/home" TMPDIR="$u/tmp" \
		USER="$user" LOGNAME="$user" \
		./test.test -test.v=test2json -test.count=1 -test.skip '^TestValidTerminalMode$') >>"$log" 2>&1 || true
	rm -rf "$u"
}

run_xcrypto() {
	local dir=$1 log=$2 pkgs
	mapfile -t pkgs < <(cd "$dir" && go list ./chacha20 ./chacha20poly1305 ./ssh/... | grep -v '/ssh/test$')
	(cd "$dir" && gotest "$log" "${pkgs[@]}")
	ssh_test "$dir" "$log"
}

run_quic() {
	local dir=$1 log=$2
	(cd "$dir" && gotest "$log" ./internal/handshake ./internal/qtls)
	(cd "$dir" && GODEBUG=${GODEBUG:+$GODEBUG,}cpu.aes=off \
		gotest "$log" -skip '^TestHandshakeCipherSuites$/^TLS_AES' ./integrationtests/self)
	if ! grep -q '"Action":"pass","Package":"[^"]*","Test":"TestChachakitSuiteIsChaCha20"' "$log"; then
		echo "{\"Action\":\"fail\",\"Package\":\"$quic_module/integrationtests/self\",\"Test\":\"TestChachakitSuiteIsChaCha20 (did not pass)\"}" >>"$log"
	fi
}

run_wireguard() { (cd "$1" && gotest "$2" ./device); }
run_age() { (cd "$1" && gotest "$2" -short ./...); }

failed_rows=()

# count LOG ACTION: how many tests and subtests in LOG ended with ACTION.
count() {
	grep -c "\"Action\":\"$2\",\"Package\":\"[^\"]*\",\"Test\"" "$1" || true
}

# failures LOG: "PACKAGE TEST" for each failed test in LOG, and "PACKAGE
# (package)" for each package that failed with no failed test of its own
# (a build error, a panic outside tests, a timeout).
failures() {
	sed -n \
		-e 's/.*"Action":"fail","Package":"\([^"]*\)","Test":"\([^"]*\)".*/T \1 \2/p' \
		-e 's/.*"Action":"fail","Package":"\([^"]*\)"[,}].*/P \1/p' \
		-e 's/.*"ImportPath":"\([^" ]*\)[^"]*","Action":"build-fail".*/P \1/p' "$1" |
		awk '$1 == "T" { t[$2] = 1; print $2, $3; next }
			{ p[$2] = 1 }
			END { for (k in p) if (!(k in t)) print k, "(package)" }' | sort -u
}

# row NAME VARIANT: prove the swap state, run the row's tests, report.
row() {
	local name=$1 variant=$2 dir log t0 label
	dir=$(tree_dir "$name" "$variant")
	label=$name
	[[ $variant == plain ]] && label="$name (unswapped)"
	log=$logs/$name-$variant.json
	: >"$log"
	echo
	echo "--- $label: $dir"
	t0=$(now)
	if ! check_swap "$name" "$variant"; then
		failed_rows+=("$label")
		return 0
	fi
	"run_$name" "$dir" "$log"
	local pass fail skip
	pass=$(count "$log" pass)
	fail=$(count "$log" fail)
	skip=$(count "$log" skip)
	# Failing tests, and packages that failed outside any test (build
	# errors, panics in TestMain, timeouts).
	local bad
	bad=$(failures "$log")
	if [[ -n "$bad" ]]; then
		grep -h -E '"Action":"(output|build-output)"' "$log" |
			sed -n 's/.*"Output":"\(.*\)"}$/\1/p' | sed 's/\\n$//; s/\\t/\t/g; s/\\"/"/g' |
			grep -E -A20 -- '--- FAIL|^FAIL|panic:|cannot|undefined|\.go:[0-9]+:[0-9]+' | head -200 || true
		printf '%s\n' "$bad" | sed "s/^/FAIL $label: /"
		fail=$((fail > 0 ? fail : 1))
	fi
	echo "$name: $pass passed, $fail failed, $skip skipped ($variant, $(($(now) - t0))s)"
	if [[ $fail != 0 ]]; then
		failed_rows+=("$label")
	fi
}

for r in "${rows[@]}"; do
	t0=$(now)
	echo "=== prepare $r"
	"prepare_$r"
	echo "=== prepare $r: $(($(now) - t0))s"
done

if $prepare_only; then
	echo "trees prepared in $work"
	exit 0
fi

for r in "${rows[@]}"; do
	if $baseline; then
		row "$r" plain
	fi
	row "$r" swapped
done

# go test all compiles the tests of every package in "all": in a swapped
# consumer that includes chachakit's own packages, whose tests compare with
# x/crypto, now the forwarding copy. They must build without an import
# cycle. The standard library's packages in "all" are left out: none of them
# imports x/crypto (crypto/tls vendors its own copy), and compiling their
# tests takes minutes with a cold build cache.
if [[ " ${rows[*]} " == *" xcrypto "* ]]; then
	echo
	echo "--- go test -run '^\$' all, less the standard library (swapped xcrypto consumer)"
	t0=$(now)
	# -mod=mod: the tests of x/crypto's packages need go.sum lines (x/term)
	# that building the consumer does not.
	if (cd "$work/xcrypto/swapped" &&
		mapfile -t pkgs < <(go list -mod=mod -f '{{if not .Standard}}{{.ImportPath}}{{end}}' all) &&
		[[ " ${pkgs[*]} " == *" github.com/chachakit/chachakit/aead "* ]] &&
		go test -mod=mod -count=1 -run '^$' "${pkgs[@]}") >"$logs/all.txt" 2>&1; then
		echo "all: $(grep -c -E '^(ok|\?) ' "$logs/all.txt" || true) packages built, chachakit's among them ($(($(now) - t0))s)"
	else
		grep -v -E '^(ok|\?) ' "$logs/all.txt" | head -60
		echo "FAIL go test all: the swapped consumer's test binaries do not build (or chachakit/aead is not in all)"
		failed_rows+=("go test all")
	fi
fi

echo
if [[ ${#failed_rows[@]} -gt 0 ]]; then
	echo "consumers.sh: FAILED: ${failed_rows[*]}"
	exit 1
fi
echo "consumers.sh: all rows passed"
