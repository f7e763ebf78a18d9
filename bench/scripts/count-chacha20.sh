#!/usr/bin/env bash
# count-chacha20.sh: guest instructions per byte of ChaCha20 (keystream and
# XOR, through the public chacha20 API) and of ChaCha20-Poly1305 Seal, for
# chachakit and golang.org/x/crypto, under QEMU user mode, counted by
# bench/scripts/qemu-icount.sh.
#
# Usage:
#   count-chacha20.sh -arch ARCH -cpu CPU [-goenv VAR=value] [-sizes "N ..."]
#                     [-ops N] ROW...
#
#   -arch    loong64, riscv64, arm64, ppc64le, ppc64, s390x, arm or 386 (GOARCH of
#            the build)
#   -cpu     QEMU CPU model, e.g. la464, rv64,v=true,vlen=256, rva23u64,
#            power9
#   -goenv   a build variable for the benchmark binary (GORISCV64=rva23u64,
#            GOARM=7)
#   -sizes   message sizes in bytes (default 16384)
#   -ops     operations counted per run (default 4, at least 2; see
#            qemu-icount.sh)
#   -split   also print, under each row, the instructions of one operation
#            by function (from the exec logs of a 2- and a 3-operation run)
#   ROW      LIB:OP[:IMPLS] with LIB chachakit or xcrypto, OP ChaCha20
#            (one XORKeyStream of SIZE bytes in place, with the cipher made
#            before the benchmarks start), ChaCha20New (a new cipher per
#            operation: NewUnauthenticatedCipher from the 32-byte key and
#            a 12-byte nonce, then one XORKeyStream of SIZE bytes in place,
#            the construction counted with the call; the Cipher does not
#            escape, so it lives on the stack and neither library
#            allocates, and the zeroing of its memory, inlined into the
#            benchmark's code, is counted for neither), Seal, Open (SIZE
#            bytes of ciphertext and the tag, sealed once
#            by x/crypto before the counted operations, opened into a
#            reused dst of SIZE bytes, not in place, the same for both
#            libraries; the last Open's error and plaintext are checked
#            after the counted loop, so a failing Open fails the row),
#            SealLoop (64 messages of SIZE bytes sealed in place by a
#            loop of Seal calls) or SealBatch (the same 64 by one
#            aead.Batch SealBatch, chachakit only), and IMPLS an optional CHACHAKIT_IMPL value with ';' for
#            ',' (e.g. chachakit:ChaCha20:chacha20=LSX;subtle=LSX); the
#            binary is built with the tag chachakit_impl_env, under which
#            the registry reads CHACHAKIT_IMPL
#
# Prints one line per row and size:
#   ARCH CPU LIB OP IMPLS SIZE instructions/op instructions/byte
# followed by "(disturbed)" when qemu-icount.sh warns that the count is not
# a whole number of instructions per operation.
#
# The benchmark program is generated into a temporary module that uses this
# checkout through a replace directive, so the counted code is exactly the
# tree's. The counted symbols are all of chachakit, golang.org/x/crypto,
# and the std crypto and encoding/binary packages; the benchmark loop is
# not. The runtime is not counted either: the testing package's GCs run the
# runtime's memclr between the runs, at random amounts, so the
# runtime.memclrNoHeapPointers that chachakit's end-of-call wipe
# (runtimehooks.Memclr of the keystream buffer) reaches on loong64 is left
# out: about 80 instructions per call for 2 KiB on la464, read from the
# disassembly (on riscv64 the wipe is chachakit's own assembly and counts).
# Each operation but ChaCha20New reuses one cipher or AEAD made before the
# benchmarks start, as a record layer reuses them; ChaCha20New makes one per
# call, as QUIC header protection and other one-shot users do.
#
# Example:
#   bench/scripts/count-chacha20.sh -arch loong64 -cpu la464 \
#     xcrypto:ChaCha20 chachakit:ChaCha20:chacha20=LASX
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 2; }

root=$(cd "$(dirname "$0")/../.." && pwd)
arch="" cpu="" goenv="" sizes="16384" ops=4 split=0
while [[ $# -gt 0 ]]; do
	case "$1" in
	-arch) arch=$2; shift 2 ;;
	-cpu) cpu=$2; shift 2 ;;
	-goenv) goenv=$2; shift 2 ;;
	-sizes) sizes=$2; shift 2 ;;
	-ops) ops=$2; shift 2 ;;
	-split) split=1; shift ;;
	-h | -help | --help) usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
[[ -n "$arch" && -n "$cpu" && $# -gt 0 ]] || usage

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

xver=$(awk '$1 == "golang.org/x/crypto" { print $2 } $2 == "golang.org/x/crypto" { print $3 }' "$root/go.mod" | head -1)
cat >"$work/go.mod" <<EOF
module countchacha

go 1.26

require (
	github.com/chachakit/chachakit v0.0.0
	golang.org/x/crypto $xver
)

replace github.com/chachakit/chachakit => $root
EOF
cp "$root/go.sum" "$work/go.sum"
cat >"$work/count_test.go" <<'EOF'
package countchacha

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/chachakit/chachakit/aead"
	"github.com/chachakit/chachakit/chacha20"
	xchacha20 "golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
)

var sizes = []int{64, 1024, 1350, 4096, 16384, 65536}

// BenchmarkCount runs one operation per iteration and yields after each, so
// that no pending preemption request makes a counted prologue take the
// stack-growth path (see qemu-icount.sh). The ciphers are made before the
// sub-benchmarks start, so that the baseline run and the counted run do the
// same set-up.
func BenchmarkCount(b *testing.B) {
	key := make([]byte, 32)
	nonce := make([]byte, 12)
	ours, _ := chacha20.NewUnauthenticatedCipher(key, nonce)
	theirs, _ := xchacha20.NewUnauthenticatedCipher(key, nonce)
	ourAEAD, _ := aead.New(key)
	theirAEAD, _ := chacha20poly1305.New(key)
	for _, size := range sizes {
		buf := make([]byte, size+16)
		for _, lib := range []string{"chachakit", "xcrypto"} {
			xor := ours.XORKeyStream
			a := ourAEAD
			if lib == "xcrypto" {
				xor = theirs.XORKeyStream
				a = theirAEAD
			}
			b.Run(fmt.Sprintf("%s-ChaCha20-%d", lib, size), func(b *testing.B) {
				runtime.Gosched()
				for i := 0; i < b.N; i++ {
					xor(buf[:size], buf[:size])
					runtime.Gosched()
				}
			})
			// ChaCha20New: a new cipher per operation, then one call,
			// through functions of the same shape for both libraries.
			newXOR := ourNewXOR
			if lib == "xcrypto" {
				newXOR = theirNewXOR
			}
			b.Run(fmt.Sprintf("%s-ChaCha20New-%d", lib, size), func(b *testing.B) {
				runtime.Gosched()
				for i := 0; i < b.N; i++ {
					newXOR(key, nonce, buf[:size])
					runtime.Gosched()
				}
			})
			b.Run(fmt.Sprintf("%s-Seal-%d", lib, size), func(b *testing.B) {
				runtime.Gosched()
				for i := 0; i < b.N; i++ {
					a.Seal(buf[:0], nonce, buf[:size], nil)
					runtime.Gosched()
				}
			})
			// Open: the ciphertext and tag are sealed by x/crypto on the
			// first call of the closure, which the baseline run and the
			// counted run both make once, and opened into dst, not in
			// place, so that every operation opens the same message. The
			// last result is checked after the loop: a failing Open is not
			// counted as one.
			var plain, sealed, dst []byte
			b.Run(fmt.Sprintf("%s-Open-%d", lib, size), func(b *testing.B) {
				if sealed == nil {
					plain = make([]byte, size)
					for i := range plain {
						plain[i] = byte(i)
					}
					sealed = theirAEAD.Seal(nil, nonce, plain, nil)
					dst = make([]byte, size)
				}
				var out []byte
				var err error
				runtime.Gosched()
				for i := 0; i < b.N; i++ {
					out, err = a.Open(dst[:0], nonce, sealed, nil)
					runtime.Gosched()
				}
				if err != nil || !bytes.Equal(out, plain) {
					b.Fatalf("%s Open of %d bytes: err %v, plaintext correct %v", lib, size, err, bytes.Equal(out, plain))
				}
			})
			// 64 messages of size bytes, each with its own nonce, sealed
			// in place: by a loop of Seal calls (SealLoop) or by one
			// SealBatch (chachakit only).
			msgs := make([]aead.Message, 64)
			for i := range msgs {
				m := &msgs[i]
				m.Nonce = make([]byte, 12)
				m.Nonce[0] = byte(i)
				buf := make([]byte, size+16)
				m.Text, m.Dst = buf[:size], buf[:0]
			}
			b.Run(fmt.Sprintf("%s-SealLoop-%d", lib, size), func(b *testing.B) {
				runtime.Gosched()
				for i := 0; i < b.N; i++ {
					for j := range msgs {
						m := &msgs[j]
						m.Out = a.Seal(m.Dst, m.Nonce, m.Text, nil)
					}
					runtime.Gosched()
				}
			})
			if lib == "chachakit" {
				b.Run(fmt.Sprintf("%s-SealBatch-%d", lib, size), func(b *testing.B) {
					runtime.Gosched()
					for i := 0; i < b.N; i++ {
						a.(aead.Batch).SealBatch(msgs)
						runtime.Gosched()
					}
				})
			}
		}
	}
}

// ourNewXOR and theirNewXOR make a cipher from key and nonce and XOR buf
// with its keystream in place: the ChaCha20New operation. The Cipher does
// not escape, so it stays on the stack, as in a caller that makes one per
// message.
//
//go:noinline
func ourNewXOR(key, nonce, buf []byte) {
	c, err := chacha20.NewUnauthenticatedCipher(key, nonce)
	if err != nil {
		panic(err)
	}
	c.XORKeyStream(buf, buf)
}

//go:noinline
func theirNewXOR(key, nonce, buf []byte) {
	c, err := xchacha20.NewUnauthenticatedCipher(key, nonce)
	if err != nil {
		panic(err)
	}
	c.XORKeyStream(buf, buf)
}
EOF

(
	cd "$work"
	env GOARCH="$arch" GOFLAGS=-mod=mod GOPROXY=off ${goenv:+$goenv} go test -tags chachakit_impl_env -c -o "$work/count.test" . >&2
)

# split_row LIB OP IMPLS SIZE: instructions of one operation by function,
# the difference between the exec logs of a 2- and a 3-operation run
# (each log holds the guest PC of every counted instruction).
split_row() {
	local n
	for n in 2 3; do
		CHACHAKIT_IMPL="${3//;/,}" "$root/bench/scripts/qemu-icount.sh" -arch "$arch" -cpu "$cpu" \
			-bin "$work/count.test" -sym "$sym" -ops "$n" -log "$work/log$n" -- \
			-test.run='^$' -test.bench="^BenchmarkCount\$/^$1-$2-$4\$" >/dev/null 2>&1
		sed -n 's/^Trace [^[]*\[[0-9a-f]*\/\([0-9a-f]*\)\/.*/\1/p' "$work/log$n" | sort | uniq -c >"$work/pcs$n"
	done
	go tool nm -size -sort address "$work/count.test" |
		awk -v re="$sym" '($3 == "T" || $3 == "t") && $4 ~ re && $2 > 0 { print $1, $2, $4 }' >"$work/syms"
	awk -v work="$work" '
		function hex(h,   i, v) { v = 0; h = tolower(h); for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return v }
		FILENAME == work "/syms" { lo[++ns] = hex($1); hi[ns] = lo[ns] + $2; name[ns] = $3; next }
		{ pc = hex($2); for (i = 1; i <= ns; i++) if (pc >= lo[i] && pc < hi[i]) { c[name[i]] += (FILENAME == work "/pcs3" ? $1 : -$1); break } }
		END { for (k in c) if (c[k] != 0) printf "    %10d  %s\n", c[k], k }
	' "$work/syms" "$work/pcs2" "$work/pcs3" | sort -k1,1nr
}

sym='^(github\.com\/chachakit\/chachakit\/|golang\.org\/x\/crypto\/|crypto\/|encoding\/binary)'
for row in "$@"; do
	IFS=: read -r lib op impls <<<"$row"
	# The loop of SealLoop is the caller's, and SealBatch's loop is inside
	# the library: the benchmark's own code counts for both.
	rowsym=$sym
	[[ $op == SealLoop || $op == SealBatch ]] && rowsym="$sym|^countchacha\\."
	for size in $sizes; do
		note=""
		if ! out=$(CHACHAKIT_IMPL="${impls//;/,}" "$root/bench/scripts/qemu-icount.sh" -arch "$arch" -cpu "$cpu" \
			-bin "$work/count.test" -sym "$rowsym" -ops "$ops" -bytes "$size" -- \
			-test.run='^$' -test.bench="^BenchmarkCount\$/^$lib-$op-$size\$" 2>"$work/err"); then
			echo "count-chacha20.sh: $lib $op $impls $size failed:" >&2
			cat "$work/err" >&2
			continue
		fi
		grep -q 'not a whole number' "$work/err" && note=" (disturbed)"
		read -r perop _ perbyte _ <<<"$out"
		printf '%s %s %s %s %s %d %s %s%s\n' "$arch${goenv:+($goenv)}" "$cpu" "$lib" "$op" "${impls:--}" "$size" "$perop" "$perbyte" "$note"
		[[ $split == 1 ]] && sym=$rowsym split_row "$lib" "$op" "$impls" "$size"
	done
done
