package main

import (
	"bytes"
	"crypto/cipher"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"

	"github.com/chachakit/chachakit/internal/impl"
	"github.com/chachakit/chachakit/vectors"
	"github.com/google/go-cmp/cmp"
)

// The benchmarks are named BenchmarkOp/lib=L/size=N so that
//
//	go test -run '^$' -bench . -count 10 ./bench > new.txt
//	benchstat -col /lib new.txt
//
// shows the libraries side by side, x/crypto first (benchstat's baseline).
// L is xcrypto, chachakit (the dispatcher's own choice) or chachakit-Name:
// chachakit with implementation Name of package benchImplPkg forced, once per
// implementation this CPU can run (only when assembly is registered for it).

// benchSizes are the table's sizes plus 8192.
var benchSizes = []int{64, 1350, 8192, 16384}

// benchImplPkg is the registry package whose implementations get their own
// sub-benchmarks.
const benchImplPkg = "chacha20"

// A benchLib is one column of the comparison.
type benchLib struct {
	name     string
	lib      library
	implName string // forced with impl.Select when not ""
}

func benchLibs() []benchLib {
	libs := []benchLib{{name: "xcrypto", lib: xcrypto}, {name: "chachakit", lib: chachakit}}
	if len(impl.List(benchImplPkg)) > 0 {
		for _, name := range availableImpls(benchImplPkg) {
			libs = append(libs, benchLib{name: "chachakit-" + name, lib: chachakit, implName: name})
		}
	}
	return libs
}

func benchOp(b *testing.B, op operation) {
	for _, l := range benchLibs() {
		b.Run("lib="+l.name, func(b *testing.B) {
			for _, size := range benchSizes {
				b.Run(fmt.Sprintf("size=%d", size), func(b *testing.B) {
					if l.implName != "" {
						if !impl.Select(benchImplPkg, l.implName) {
							b.Fatalf("cannot select %s/%s", benchImplPkg, l.implName)
						}
						defer impl.Reset(benchImplPkg)
					}
					run := op.prepare(l.lib, size)
					run(1)
					b.SetBytes(int64(size))
					b.ReportAllocs()
					b.ResetTimer()
					run(b.N)
				})
			}
		})
	}
}

func opNamed(name string) operation {
	for _, op := range operations {
		if op.name == name {
			return op
		}
	}
	panic("no operation " + name)
}

func BenchmarkSeal(b *testing.B)         { benchOp(b, opNamed("Seal")) }
func BenchmarkOpen(b *testing.B)         { benchOp(b, opNamed("Open")) }
func BenchmarkOpenInPlace(b *testing.B)  { benchOp(b, opNamed("OpenInPlace")) }
func BenchmarkSealX(b *testing.B)        { benchOp(b, opNamed("SealX")) }
func BenchmarkXORKeyStream(b *testing.B) { benchOp(b, opNamed("XORKeyStream")) }

// BenchmarkConstruction/lib=L/pattern=P runs each construction pattern
// (construct.go) with x/crypto and chachakit; one op is one pattern.
func BenchmarkConstruction(b *testing.B) {
	for _, lib := range []string{"xcrypto", "chachakit"} {
		b.Run("lib="+lib, func(b *testing.B) {
			for _, c := range constructions {
				run := c.theirs
				if lib == "chachakit" {
					run = c.ours
				}
				b.Run("pattern="+c.name, func(b *testing.B) {
					run(1)
					b.ReportAllocs()
					b.ResetTimer()
					run(b.N)
				})
			}
		})
	}
}

// fakeOn is the toggle of a fake implementation registered for this test
// binary only, so that the self-check's loop over implementations runs even
// before any assembly exists.
var fakeOn = true

func init() { impl.Register("benchtest", "Fake", &fakeOn) }

func TestSelfCheck(t *testing.T) {
	results := selfCheck()
	if len(results) != 2 {
		t.Fatalf("got %d results, want 2", len(results))
	}
	for _, r := range results {
		if !r.OK {
			t.Errorf("%s: %s", r.Source, r.Error)
		}
		under := strings.Join(r.Under, ",")
		for _, want := range []string{"default", "benchtest=Go", "benchtest=Fake"} {
			if !strings.Contains(under, want) {
				t.Errorf("%s ran under %s, missing %s", r.Source, under, want)
			}
		}
	}
	if !fakeOn {
		t.Error("selfCheck did not restore the registry")
	}
}

// TestVectorsAgainstXCrypto checks the transcription of the two self-check
// vectors with x/crypto, independently of chachakit.
func TestVectorsAgainstXCrypto(t *testing.T) {
	s := streamVector
	c, err := chacha20.NewUnauthenticatedCipher(s.key, s.nonce)
	if err != nil {
		t.Fatal(err)
	}
	c.SetCounter(s.counter)
	got := make([]byte, len(s.plaintext))
	c.XORKeyStream(got, s.plaintext)
	if !bytes.Equal(got, s.ciphertext) {
		t.Errorf("%s: x/crypto gives %x, want %x", s.source, got, s.ciphertext)
	}

	v := aeadVector
	a, err := chacha20poly1305.New(v.key)
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]byte{}, v.ciphertext...), v.tag...)
	if got := a.Seal(nil, v.nonce, v.plaintext, v.ad); !bytes.Equal(got, want) {
		t.Errorf("%s: x/crypto gives %x, want %x", v.source, got, want)
	}
}

// TestVectorsAgainstPackage checks that the self-check's vectors are the
// ones package vectors holds for the same sections.
func TestVectorsAgainstPackage(t *testing.T) {
	found := 0
	for _, want := range vectors.RFC8439Streams {
		if strings.HasSuffix(want.Source, "Section 2.4.2") {
			found++
			v := streamVector
			got := vectors.Stream{Source: want.Source, Key: v.key, Nonce: v.nonce, Counter: v.counter, Plaintext: v.plaintext, Ciphertext: v.ciphertext}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s differs from package vectors (-vectors +self-check):\n%s", v.source, diff)
			}
		}
	}
	for _, want := range vectors.RFC8439AEADs {
		if strings.HasSuffix(want.Source, "Section 2.8.2") {
			found++
			v := aeadVector
			got := vectors.AEAD{Source: want.Source, Key: v.key, Nonce: v.nonce, AAD: v.ad, Plaintext: v.plaintext, Ciphertext: v.ciphertext, Tag: v.tag}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s differs from package vectors (-vectors +self-check):\n%s", v.source, diff)
			}
		}
	}
	if found != 2 {
		t.Errorf("found %d of the 2 vectors in package vectors", found)
	}
}

// TestOperationsAgree checks that both libraries compute the same thing in
// every measured operation, so that the table compares like with like.
func TestOperationsAgree(t *testing.T) {
	key, ad := testKey(), pattern(adLen, 0x50)
	for _, size := range benchSizes {
		pt := pattern(size, 0)
		{
			ours, theirs := chachakit, xcrypto
			a1, a2 := must(ours.newAEAD(key)), must(theirs.newAEAD(key))
			if got, want := a1.Seal(nil, testNonce(), pt, ad), a2.Seal(nil, testNonce(), pt, ad); !bytes.Equal(got, want) {
				t.Errorf("Seal %d: chachakit and x/crypto differ", size)
			}
			x1, x2 := must(ours.newAEADX(key)), must(theirs.newAEADX(key))
			n24 := pattern(24, 0x40)
			if got, want := x1.Seal(nil, n24, pt, ad), x2.Seal(nil, n24, pt, ad); !bytes.Equal(got, want) {
				t.Errorf("SealX %d: chachakit and x/crypto differ", size)
			}
			s1, s2 := must(ours.newStream(key, testNonce())), must(theirs.newStream(key, testNonce()))
			got, want := make([]byte, size), make([]byte, size)
			s1.XORKeyStream(got, pt)
			s2.XORKeyStream(want, pt)
			if !bytes.Equal(got, want) {
				t.Errorf("XORKeyStream %d: chachakit and x/crypto differ", size)
			}
		}
	}
}

// TestNoAllocations checks that the measured loops of chachakit allocate
// nothing, so that the table measures the cipher and not the allocator.
func TestNoAllocations(t *testing.T) {
	for _, op := range operations {
		for _, size := range sizes {
			run := op.prepare(chachakit, size)
			if n := testing.AllocsPerRun(10, func() { run(1) }); n != 0 {
				t.Errorf("%s %d: %v allocations per call", op.name, size, n)
			}
		}
	}
}

// TestConstructionsAgree checks that each construction pattern computes the
// same with both libraries, and that chachakit's allocates no more than
// x/crypto's (nothing, where the cipher does not escape).
func TestConstructionsAgree(t *testing.T) {
	var m1, m2 [5]byte
	ckHeaderMask(&m1, hpKey, hpSample)
	xHeaderMask(&m2, hpKey, hpSample)
	if m1 != m2 || m1 == [5]byte{} {
		t.Errorf("HeaderMask: chachakit %x, x/crypto %x", m1, m2)
	}
	var p1, p2 [32]byte
	l1, l2 := [4]byte{1, 2, 3, 4}, [4]byte{1, 2, 3, 4}
	ckSSHKeys(&p1, &l1, 7)
	xSSHKeys(&p2, &l2, 7)
	if p1 != p2 || l1 != l2 {
		t.Errorf("SSHPacket: chachakit %x %x, x/crypto %x %x", p1, l1, p2, l2)
	}
	// allocsPerCall counts every allocation of the process, so a stray one
	// of the runtime's during the 4096 calls shows as a fraction: allow
	// fewer than one per 64 calls.
	const stray = 1.0 / 64
	for _, c := range constructions {
		ours, theirs := allocsPerCall(c.ours), allocsPerCall(c.theirs)
		if ours > theirs+stray {
			t.Errorf("%s: chachakit makes %v allocations per pattern, x/crypto %v", c.name, ours, theirs)
		}
	}
}

// TestXORKeyStreamRenews checks that the XORKeyStream loop takes a new
// cipher before the old one runs out of keystream, with the limit lowered to
// 10 blocks so that it happens quickly. After 25 calls on one 64-byte buffer
// the keystream blocks 0..9 of the first two ciphers cancel out, leaving the
// XOR of blocks 0..4.
func TestXORKeyStreamRenews(t *testing.T) {
	defer func(m int) { maxStreamBytes = m }(maxStreamBytes)
	maxStreamBytes = 640
	key, nonce := testKey(), testNonce()
	made := 0
	newStream := func() cipher.Stream {
		made++
		return must(chachakit.newStream(key, nonce))
	}
	buf := make([]byte, 64)
	run := streamLoop(newStream, buf)
	run(7)
	run(18)
	if made != 3 {
		t.Errorf("made %d streams for 25 blocks of a 10-block limit, want 3", made)
	}
	want := make([]byte, 64)
	ref := must(xcrypto.newStream(key, nonce))
	for range 5 {
		ref.XORKeyStream(want, want)
	}
	if !bytes.Equal(buf, want) {
		t.Errorf("buffer is %x, want %x", buf, want)
	}
}

func TestCalibrateAndMedian(t *testing.T) {
	// A fake clock: n iterations take n ms. The first try (1 ms) aims at
	// d/2 = 10 ms, the second (10 ms) is long enough to extrapolate from.
	if n := calibrate(func(n int) time.Duration { return time.Duration(n) * time.Millisecond }, 20*time.Millisecond); n != 20 {
		t.Errorf("calibrate gives %d iterations of 1ms for 20ms, want 20", n)
	}
	// A clock that never moves: stop at the bound.
	if n := calibrate(func(int) time.Duration { return 0 }, time.Second); n != maxIterations {
		t.Errorf("calibrate with a stopped clock gives %d, want %d", n, maxIterations)
	}
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestRunQuick runs the whole program in its quickest form, in both output
// modes.
func TestRunQuick(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-quick", "-time", "1ms", "-rounds", "1", "-sizes", "64"}, &out, &errOut); code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, errOut.String())
	}
	for _, want := range []string{"self-check: RFC 8439 §2.8.2 ok", "self-check: RFC 8439 §2.4.2 ok", "XORKeyStream", "ratio", "construction:", "HeaderMask"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	out.Reset()
	if code := run([]string{"-quick", "-json", "-time", "1ms", "-rounds", "2", "-sizes", "64,100"}, &out, &errOut); code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, errOut.String())
	}
	var rep report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("-json output does not decode: %v\n%s", err, out.String())
	}
	if len(rep.Rows) != len(operations)*2 || len(rep.Construction) != len(constructions) || len(rep.SelfCheck) != 2 || len(rep.Selections) == 0 || rep.Platform.GOARCH == "" {
		t.Errorf("-json report incomplete: %+v", rep)
	}
	for _, r := range rep.Rows {
		if r.ChachakitMBps <= 0 || r.XCryptoMBps <= 0 || len(r.ChachakitRuns) != 2 {
			t.Errorf("bad row %+v", r)
		}
	}

	if code := run([]string{"-sizes", "0"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("-sizes 0: exit status %d, want 2", code)
	}
}

// TestRunFailsOnBadVector checks that a failing self-check stops the
// program with status 1 before it measures anything, in both output modes.
func TestRunFailsOnBadVector(t *testing.T) {
	saved := aeadVector
	defer func() { aeadVector = saved }()
	aeadVector.tag = bytes.Clone(saved.tag)
	aeadVector.tag[0] ^= 1

	var out, errOut bytes.Buffer
	if code := run([]string{"-quick", "-sizes", "64"}, &out, &errOut); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	if !strings.Contains(out.String(), "self-check: RFC 8439 §2.8.2 FAILED") || strings.Contains(out.String(), "ratio") {
		t.Errorf("unexpected output:\n%s", out.String())
	}

	out.Reset()
	if code := run([]string{"-quick", "-json", "-sizes", "64"}, &out, &errOut); code != 1 {
		t.Errorf("-json: exit status %d, want 1", code)
	}
	var rep report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("-json output does not decode: %v\n%s", err, out.String())
	}
	if len(rep.Rows) != 0 || len(rep.SelfCheck) != 2 || rep.SelfCheck[1].OK || !rep.SelfCheck[0].OK {
		t.Errorf("-json report: rows %v, self-check %+v", rep.Rows, rep.SelfCheck)
	}
}

// BenchmarkBatch/case=C/op=O/lib=L compares aead.Batch (lib=chachakit-batch)
// with a loop of single calls on chachakit (lib=chachakit) and on x/crypto
// (lib=xcrypto). One op is one batch; the throughput is that of the
// messages' bytes, so ratios are ratios of messages per second.
func BenchmarkBatch(b *testing.B) {
	for _, c := range batchCases {
		b.Run("case="+c.name, func(b *testing.B) {
			for _, op := range []string{"Seal", "Open"} {
				b.Run("op="+op, func(b *testing.B) {
					for _, l := range []struct {
						name  string
						lib   library
						batch bool
					}{{"xcrypto", xcrypto, false}, {"chachakit", chachakit, false}, {"chachakit-batch", chachakit, true}} {
						b.Run("lib="+l.name, func(b *testing.B) {
							run := batchRun(must(l.lib.newAEAD(testKey())), c, op == "Open", l.batch)
							run(1)
							b.SetBytes(int64(c.bytes()))
							b.ReportAllocs()
							b.ResetTimer()
							run(b.N)
						})
					}
				})
			}
		})
	}
}
