package fuzz

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/vectors"
)

// Seeds come from two places:
//
//   - testdata/fuzz/<Target>/seed-*: files in the `go test fuzz v1` format
//     generated from the published vectors of package vectors (RFC 8439,
//     draft-irtf-cfrg-xchacha-03, Wycheproof) by TestWriteCorpus. Other
//     files in those directories are inputs that once failed, kept as
//     regression tests; they are never generated nor removed.
//   - the add*Seeds functions below: hand-made edge cases (lengths around
//     block and batch boundaries, counter wrap, overlaps), passed to f.Add.
//
// A plain `go test ./fuzz` runs the targets on both.

var writeCorpus = flag.Bool("write-corpus", false, "TestWriteCorpus: (re)write the generated seed files in testdata/fuzz")

// A corpusFile is one generated seed file: the target it belongs to, its
// name in the target's directory, and the target's arguments.
type corpusFile struct {
	target, name string
	args         []any
}

// marshalCorpus encodes args in the `go test fuzz v1` format that
// `go test` reads from testdata/fuzz.
func marshalCorpus(args []any) []byte {
	var b bytes.Buffer
	b.WriteString("go test fuzz v1\n")
	for _, a := range args {
		switch v := a.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", v)
		case uint8, uint16, uint32, uint64:
			fmt.Fprintf(&b, "%T(%d)\n", v, v)
		default:
			panic(fmt.Sprintf("marshalCorpus: unsupported type %T", a))
		}
	}
	return b.Bytes()
}

// slug turns a vector's Source into a file name component.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// wycheproofAEADs returns the Wycheproof ChaCha20-Poly1305 cases and then
// the XChaCha20-Poly1305 ones, each with the prefix of its file name.
func wycheproofAEADs(t *testing.T) (prefixes []string, cases [][]vectors.WycheproofAEADTest) {
	t.Helper()
	c, err := vectors.WycheproofChaCha20Poly1305()
	if err != nil {
		t.Fatal(err)
	}
	x, err := vectors.WycheproofXChaCha20Poly1305()
	if err != nil {
		t.Fatal(err)
	}
	return []string{"wycheproof-chacha20poly1305", "wycheproof-xchacha20poly1305"}, [][]vectors.WycheproofAEADTest{c, x}
}

// keep selects the Wycheproof cases that get a seed file, to keep the
// corpus to a few hundred small files: every case whose flags no earlier
// kept case had, every case with an unusual nonce or tag length, and every
// step-th of the rest.
func keep(cases []vectors.WycheproofAEADTest, step int) []vectors.WycheproofAEADTest {
	var out []vectors.WycheproofAEADTest
	seen := map[string]bool{}
	for i, c := range cases {
		flags := fmt.Sprint(c.Valid, c.Flags)
		odd := len(c.Tag) != 16 || (len(c.Nonce) != 12 && len(c.Nonce) != 24)
		if !seen[flags] || odd || i%step == 0 {
			out = append(out, c)
		}
		seen[flags] = true
	}
	return out
}

// generatedCorpus returns every seed file TestWriteCorpus writes.
func generatedCorpus(t *testing.T) []corpusFile {
	var files []corpusFile
	add := func(target, name string, args ...any) {
		files = append(files, corpusFile{target, "seed-" + name, args})
	}
	prefixes, wycheproof := wycheproofAEADs(t)

	// FuzzSealOpen(key, nonce, ad, plaintext, mode, grow, pos, delta): the
	// published encryptions, each with its own buffer layout and a tampered
	// byte in a different place.
	n := 0
	sealOpen := func(name string, key, nonce, ad, plaintext []byte) {
		mode := byte(n*0x29)&^1 | b2u8(len(nonce) == 24)
		add("FuzzSealOpen", name, key, nonce, ad, plaintext, mode, uint16(0), uint32(n*7919), uint8(1)<<(n%8))
		n++
	}
	for _, v := range slices.Concat(vectors.RFC8439AEADs, vectors.XChaChaAEADs) {
		sealOpen(slug(v.Source), v.Key, v.Nonce, v.AAD, v.Plaintext)
	}
	for f, cases := range wycheproof {
		for _, c := range keep(cases, 12) {
			if c.Valid {
				sealOpen(fmt.Sprintf("%s-tc%03d", prefixes[f], c.TcID), c.Key, c.Nonce, c.AAD, c.Msg)
			}
		}
	}

	// FuzzOpen(key, nonce, ad, ciphertext, mode): the published ciphertexts,
	// valid or not, with their nonces as they are (some have the wrong
	// length on purpose).
	n = 0
	open := func(name string, x bool, key, nonce, ad, ciphertext []byte) {
		mode := byte(n*0x29)&^0x81 | b2u8(x)
		add("FuzzOpen", name, key, nonce, ad, ciphertext, mode)
		n++
	}
	for _, v := range slices.Concat(vectors.RFC8439AEADs, vectors.XChaChaAEADs) {
		open(slug(v.Source), len(v.Nonce) == 24, v.Key, v.Nonce, v.AAD, slices.Concat(v.Ciphertext, v.Tag))
	}
	for f, cases := range wycheproof {
		for _, c := range keep(cases, 8) {
			open(fmt.Sprintf("%s-tc%03d", prefixes[f], c.TcID), f == 1, c.Key, c.Nonce, c.AAD, slices.Concat(c.CT, c.Tag))
		}
	}

	// FuzzXORKeyStream(key, nonce, msg, prog, mode): every published
	// keystream and encryption, in one call after SetCounter, and again in
	// chunks of 1, 63, 65 and the rest bytes.
	stream := func(name string, key, nonce []byte, counter uint32, msg []byte) {
		x := b2u8(len(nonce) == 24)
		set := []byte{opSetRaw, byte(counter), byte(counter >> 8), byte(counter >> 16), byte(counter >> 24)}
		whole := slices.Concat(set, []byte{opXOR16, byte(len(msg)), byte(len(msg) >> 8)})
		add("FuzzXORKeyStream", name, key, nonce, msg, whole, x)
		chunks := slices.Concat(set, []byte{opXOR8, 1, opXOR8, 63, opXORInPl, 65, opXOR16, byte(len(msg)), byte(len(msg) >> 8)})
		add("FuzzXORKeyStream", name+"-chunks", key, nonce, msg, chunks, x)
	}
	for _, v := range slices.Concat(vectors.RFC8439Streams, vectors.XChaChaStreams) {
		stream(slug(v.Source), v.Key, v.Nonce, v.Counter, v.Plaintext)
	}
	for _, v := range vectors.RFC8439Blocks {
		stream(slug(v.Source), v.Key, v.Nonce, v.Counter, make([]byte, 64))
	}
	for _, v := range vectors.RFC8439PolyKeys {
		stream(slug(v.Source), v.Key, v.Nonce, 0, make([]byte, 32))
	}

	// FuzzXORBytes(data, dOff, dLen, xOff, xLen, yOff, yLen): each published
	// plaintext XOR its keystream into a third region, then in place.
	for _, v := range slices.Concat(vectors.RFC8439Streams, vectors.XChaChaStreams) {
		m := len(v.Plaintext)
		ks := make([]byte, m)
		for i := range ks {
			ks[i] = v.Plaintext[i] ^ v.Ciphertext[i]
		}
		data := slices.Concat(v.Plaintext, ks)
		l := uint16(m)
		add("FuzzXORBytes", slug(v.Source), data, 2*l, l, uint16(0), l, l, l)
		add("FuzzXORBytes", slug(v.Source)+"-in-place", data, uint16(0), l, uint16(0), l, l, l)
	}

	// FuzzMemclr(off, n, mode): the sizes of the secrets the library wipes
	// (a key, a nonce, a tag, a ChaCha20 state, a keystream block, a
	// Poly1305 key) and of the published messages, at several offsets.
	sizes := []int{32, 12, 24, 16, 48, 64, 32}
	for _, v := range vectors.RFC8439AEADs {
		sizes = append(sizes, len(v.Plaintext))
	}
	for _, v := range slices.Concat(vectors.RFC8439Streams, vectors.XChaChaStreams) {
		sizes = append(sizes, len(v.Plaintext))
	}
	for i, s := range sizes {
		add("FuzzMemclr", fmt.Sprintf("size%d-off%d", s, i*5%64), uint16(i*5%64), uint16(s), uint8(i))
	}

	// FuzzRecord and FuzzQUICPacket: see tls13Corpus.
	return append(files, tls13Corpus(t)...)
}

func b2u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// TestWriteCorpus rewrites the generated seed files when run with
// -write-corpus:
//
//	go test ./fuzz -run TestWriteCorpus -write-corpus
//
// It removes generated files (seed-*) that are no longer generated and
// leaves every other file alone. Without the flag it checks that the files
// on disk are the ones it would write.
func TestWriteCorpus(t *testing.T) {
	files := generatedCorpus(t)
	want := map[string][]byte{}
	for _, f := range files {
		path := filepath.Join("testdata", "fuzz", f.target, f.name)
		if _, dup := want[path]; dup {
			t.Fatalf("two seed files named %s", path)
		}
		want[path] = marshalCorpus(f.args)
	}
	existing, err := filepath.Glob(filepath.Join("testdata", "fuzz", "*", "seed-*"))
	if err != nil {
		t.Fatal(err)
	}
	if *writeCorpus {
		for _, path := range existing {
			if _, ok := want[path]; !ok {
				if err := os.Remove(path); err != nil {
					t.Fatal(err)
				}
			}
		}
		for path, data := range want {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("wrote %d seed files", len(want))
		return
	}
	var stale []string
	for _, path := range existing {
		if _, ok := want[path]; !ok {
			stale = append(stale, path+" (no longer generated)")
		}
	}
	for path, data := range want {
		if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, data) {
			stale = append(stale, path+" (missing or different)")
		}
	}
	if len(stale) > 0 {
		slices.Sort(stale)
		t.Errorf("%d of %d seed files are out of date; run\n\tgo test ./fuzz -run TestWriteCorpus -write-corpus\nfirst ones:\n\t%s",
			len(stale), len(want), strings.Join(stale[:min(len(stale), 5)], "\n\t"))
	}
}

// edgeLengths are message lengths around the block (64 bytes), Poly1305
// block (16 bytes) and multi-block batch boundaries (2, 4, 8 and 16 blocks)
// of the SIMD paths, and a few long ones.
var edgeLengths = []int{
	0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256, 257,
	319, 320, 383, 384, 385, 447, 448, 511, 512, 513, 575, 639, 767, 768, 769,
	1023, 1024, 1025, 1087, 1088, 1535, 1536, 2047, 2048, 2049,
}

func seedKey(i int) []byte {
	k := make([]byte, 32)
	for j := range k {
		k[j] = byte(i*37 + j*11 + 1)
	}
	return k
}

func addSealOpenSeeds(f *testing.F) {
	for i, n := range edgeLengths {
		// One plaintext byte, grown to n; additional data of every length
		// 0..20; both nonce sizes; tampering everywhere.
		pt, grow := []byte{byte(i)}, uint16(max(n-1, 0))
		if n == 0 {
			pt = nil
		}
		ad := bytes.Repeat([]byte{0xad}, i%21)
		mode := byte(i*0x35) &^ 1
		f.Add(seedKey(i), seedKey(i + 100)[:12], ad, pt, mode, grow, uint32(i*131), uint8(i))
		f.Add(seedKey(i), seedKey(i + 100)[:24], ad, pt, mode|1, grow, uint32(i*977), uint8(i+1))
	}
}

func addOpenSeeds(f *testing.F) {
	key := seedKey(1)
	for _, nonceLen := range []int{0, 1, 11, 12, 13, 16, 23, 24, 25} {
		for _, ctLen := range []int{0, 15, 16, 17, 80} {
			ct := bytes.Repeat([]byte{byte(ctLen)}, ctLen)
			mode := byte(nonceLen*0x1d+ctLen) &^ 0x81
			f.Add(key, make([]byte, nonceLen), []byte("ad"), ct, mode|b2u8(nonceLen > 12))
		}
	}
	for _, keyLen := range []int{0, 16, 31, 33} {
		f.Add(make([]byte, keyLen), make([]byte, 12), []byte(nil), make([]byte, 32), uint8(0x80))
	}
}

func addXORKeyStreamSeeds(f *testing.F) {
	key, nonce := seedKey(3), seedKey(4)[:24]
	msg := []byte("Ladies and Gentlemen of the class of '99")
	for i, n := range edgeLengths {
		prog := []byte{opXOR16, byte(n), byte(n >> 8), opXOR8, byte(i), opXOR16, byte(n), byte(n >> 8)}
		f.Add(key, nonce, msg, prog, uint8(i&1))
	}
	progs := [][]byte{
		// Up to the end of the counter space: the last blocks in one call,
		// in a call that ends inside the last block, then overflow.
		{opSetEnd, 3, opXOR16, 0, 1, opXOR8, 1},
		{opSetEnd, 2, opXOR8, 100, opXOR8, 100, opXOR8, 100},
		{opSetEnd, 0, opXOR8, 64, opXOR8, 1, opSetRel, 0},
		{opSetEnd, 0, opXOR8, 63, opXOR8, 1, opXOR8, 1},
		{opSetEnd, 16, opXORBlocks, 17, opXORBlocks, 1},
		{opSetEnd, 20, opXOR16, 0xff, 0x04, opSetRel, 1, opXOR8, 200},
		// Rollbacks and SetCounter to the current block mid-block.
		{opXOR8, 10, opSetRel, 0, opXOR8, 10, opSetRel, 0xff, opXOR8, 1},
		{opXOR8, 64, opSetRel, 0, opXOR8, 64, opSetRel, 0xfe},
		{opSetRaw, 9, 0, 0, 0, opSetRaw, 8, 0, 0, 0},
		{opSetRaw, 0xff, 0xff, 0xff, 0xff, opXOR8, 64, opXOR8, 0, opSetRaw, 0xff, 0xff, 0xff, 0xff},
		// Misuse: short dst, overlap, then carry on.
		{opXOR8, 5, opMisuse, 20, opMisuse, 21, opXOR8, 70},
	}
	for i, p := range progs {
		f.Add(key, nonce[:12+12*(i&1)], msg, p, uint8(i&1))
	}
	// Wrong key and nonce lengths.
	for _, c := range [][2]int{{31, 12}, {32, 0}, {32, 8}, {32, 16}, {32, 25}, {0, 0}} {
		f.Add(make([]byte, c[0]), make([]byte, c[1]), msg, []byte{opXOR8, 1}, uint8(0x80))
	}
}

func addXORBytesSeeds(f *testing.F) {
	data := []byte("ChaCha20 and Poly1305 for IETF Protocols")
	for i, n := range edgeLengths {
		l := uint16(n)
		f.Add(data, uint16(2000+i), l, uint16(i), l, uint16(1000+i%8), l+uint16(i%3)) // disjoint
		f.Add(data, uint16(i%8), l, uint16(i%8), l, uint16(1500), l)                  // dst == x
	}
	cases := [][6]uint16{
		{0, 10, 1, 10, 100, 10},   // dst one byte before x: invalid overlap
		{1, 10, 0, 10, 100, 10},   // dst one byte after x
		{100, 10, 0, 10, 105, 10}, // dst overlaps y
		{0, 9, 100, 10, 200, 10},  // dst too short
		{0, 0, 100, 0, 200, 10},   // nothing to do
		{0, 10, 0, 20, 0, 30},     // all three exactly equal (different lengths)
		{50, 10, 0, 100, 0, 100},  // dst inside x, too short
		{0, 2999, 1, 2999, 0, 2999},
	}
	for _, c := range cases {
		f.Add(data, c[0], c[1], c[2], c[3], c[4], c[5])
	}
}

func addMemclrSeeds(f *testing.F) {
	for i, n := range edgeLengths {
		f.Add(uint16(i%64), uint16(n), uint8(i))
	}
	f.Add(uint16(63), uint16(4096), uint8(1))
	f.Add(uint16(0), uint16(4096), uint8(0))
}
