package vectors

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"testing"

	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
	//lint:ignore SA1019 the deprecated package is the reference this one is tested against
	"golang.org/x/crypto/poly1305"
)

// The tests below check every transcribed vector against
// golang.org/x/crypto, an implementation that shares no code with this
// module. A typo in a hex literal shows up as a mismatch here.

// qr is the ChaCha quarter round of RFC 8439, Section 2.1, written out
// independently so the quarter-round vectors have an oracle too.
func qr(a, b, c, d uint32) (uint32, uint32, uint32, uint32) {
	a += b
	d = bits.RotateLeft32(d^a, 16)
	c += d
	b = bits.RotateLeft32(b^c, 12)
	a += b
	d = bits.RotateLeft32(d^a, 8)
	c += d
	b = bits.RotateLeft32(b^c, 7)
	return a, b, c, d
}

func TestQuarterRounds(t *testing.T) {
	for _, v := range RFC8439QuarterRounds {
		t.Run(v.Source, func(t *testing.T) {
			var got [4]uint32
			got[0], got[1], got[2], got[3] = qr(v.In[0], v.In[1], v.In[2], v.In[3])
			if got != v.Out {
				t.Errorf("quarter round = %08x, want %08x", got, v.Out)
			}
		})
	}
}

func TestStateQuarterRounds(t *testing.T) {
	for _, v := range RFC8439StateQuarterRounds {
		t.Run(v.Source, func(t *testing.T) {
			s := v.In
			s[v.A], s[v.B], s[v.C], s[v.D] = qr(s[v.A], s[v.B], s[v.C], s[v.D])
			if s != v.Out {
				t.Errorf("state after quarter round = %08x, want %08x", s, v.Out)
			}
			// Only the four addressed words may differ.
			for i := range s {
				touched := i == v.A || i == v.B || i == v.C || i == v.D
				if !touched && v.In[i] != v.Out[i] {
					t.Errorf("word %d changed from %08x to %08x but is not an operand", i, v.In[i], v.Out[i])
				}
			}
		})
	}
}

// keystream returns n bytes of ChaCha20 (12-byte nonce) or XChaCha20
// (24-byte nonce) keystream starting at block counter.
func keystream(t *testing.T, key, nonce []byte, counter uint32, n int) []byte {
	t.Helper()
	c, err := chacha20.NewUnauthenticatedCipher(key, nonce)
	if err != nil {
		t.Fatalf("chacha20.NewUnauthenticatedCipher: %v", err)
	}
	c.SetCounter(counter)
	out := make([]byte, n)
	c.XORKeyStream(out, out)
	return out
}

func TestBlocks(t *testing.T) {
	for _, v := range RFC8439Blocks {
		t.Run(v.Source, func(t *testing.T) {
			got := keystream(t, v.Key, v.Nonce, v.Counter, 64)
			if !bytes.Equal(got, v.Keystream) {
				t.Errorf("block = %x\nwant    %x", got, v.Keystream)
			}
		})
	}
}

func testStreams(t *testing.T, streams []Stream) {
	for _, v := range streams {
		t.Run(v.Source, func(t *testing.T) {
			ks := keystream(t, v.Key, v.Nonce, v.Counter, len(v.Plaintext))
			got := make([]byte, len(v.Plaintext))
			for i := range got {
				got[i] = v.Plaintext[i] ^ ks[i]
			}
			if !bytes.Equal(got, v.Ciphertext) {
				t.Errorf("ciphertext = %x\nwant         %x", got, v.Ciphertext)
			}
		})
	}
}

func TestStreams(t *testing.T)        { testStreams(t, RFC8439Streams) }
func TestXChaChaStreams(t *testing.T) { testStreams(t, XChaChaStreams) }

func TestMACs(t *testing.T) {
	for _, v := range RFC8439MACs {
		t.Run(v.Source, func(t *testing.T) {
			var key [32]byte
			copy(key[:], v.Key)
			var tag [16]byte
			poly1305.Sum(&tag, v.Msg, &key)
			if !bytes.Equal(tag[:], v.Tag) {
				t.Errorf("tag = %x, want %x", tag, v.Tag)
			}
		})
	}
}

func TestPolyKeys(t *testing.T) {
	for _, v := range RFC8439PolyKeys {
		t.Run(v.Source, func(t *testing.T) {
			got := keystream(t, v.Key, v.Nonce, 0, 32)
			if !bytes.Equal(got, v.OneTimeKey) {
				t.Errorf("one-time key = %x\nwant           %x", got, v.OneTimeKey)
			}
		})
	}
}

func TestHChaCha20(t *testing.T) {
	for _, v := range XChaChaHChaCha20s {
		t.Run(v.Source, func(t *testing.T) {
			got, err := chacha20.HChaCha20(v.Key, v.Nonce)
			if err != nil {
				t.Fatalf("chacha20.HChaCha20: %v", err)
			}
			if !bytes.Equal(got, v.Subkey) {
				t.Errorf("subkey = %x\nwant     %x", got, v.Subkey)
			}
		})
	}
}

func testAEADs(t *testing.T, aeads []AEAD) {
	for _, v := range aeads {
		t.Run(v.Source, func(t *testing.T) {
			newAEAD := chacha20poly1305.New
			if len(v.Nonce) == chacha20poly1305.NonceSizeX {
				newAEAD = chacha20poly1305.NewX
			}
			a, err := newAEAD(v.Key)
			if err != nil {
				t.Fatalf("new AEAD: %v", err)
			}
			want := append(append([]byte{}, v.Ciphertext...), v.Tag...)
			sealed := a.Seal(nil, v.Nonce, v.Plaintext, v.AAD)
			if !bytes.Equal(sealed, want) {
				t.Errorf("Seal = %x\nwant   %x", sealed, want)
			}
			opened, err := a.Open(nil, v.Nonce, want, v.AAD)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if !bytes.Equal(opened, v.Plaintext) {
				t.Errorf("Open = %x\nwant   %x", opened, v.Plaintext)
			}
		})
	}
}

func TestAEADs(t *testing.T)        { testAEADs(t, RFC8439AEADs) }
func TestXChaChaAEADs(t *testing.T) { testAEADs(t, XChaChaAEADs) }

// TestPolyKeysMatchBlocks cross-checks the transcription itself: where RFC
// 8439 prints a block and a one-time key for the same key and nonce at
// counter 0, the key must be the first half of the block.
func TestPolyKeysMatchBlocks(t *testing.T) {
	matched := 0
	for _, k := range RFC8439PolyKeys {
		for _, b := range RFC8439Blocks {
			if b.Counter != 0 || !bytes.Equal(k.Key, b.Key) || !bytes.Equal(k.Nonce, b.Nonce) {
				continue
			}
			matched++
			if !bytes.Equal(k.OneTimeKey, b.Keystream[:32]) {
				t.Errorf("%s does not match the first 32 bytes of %s", k.Source, b.Source)
			}
		}
	}
	if matched == 0 {
		t.Error("expected at least one poly key to share key and nonce with a counter-0 block")
	}
}

// TestXChaChaStreamsAgree checks that the two XChaCha20 vectors, which use
// the same key, nonce and plaintext, are consistent: block n of the
// counter-1 keystream is block n+1 of the counter-0 keystream.
func TestXChaChaStreamsAgree(t *testing.T) {
	if len(XChaChaStreams) != 2 {
		t.Fatalf("len(XChaChaStreams) = %d, want 2", len(XChaChaStreams))
	}
	s0, s1 := XChaChaStreams[0], XChaChaStreams[1]
	if s0.Counter != 0 || s1.Counter != 1 {
		t.Fatalf("counters = %d, %d, want 0, 1", s0.Counter, s1.Counter)
	}
	if !bytes.Equal(s0.Plaintext, s1.Plaintext) {
		t.Fatal("plaintexts differ")
	}
	n := len(s0.Plaintext) - 64
	for i := 0; i < n; i++ {
		k0 := s0.Plaintext[i+64] ^ s0.Ciphertext[i+64]
		k1 := s1.Plaintext[i] ^ s1.Ciphertext[i]
		if k0 != k1 {
			t.Fatalf("keystream byte %d of the counter-1 vector is %02x, counter-0 vector has %02x", i, k1, k0)
		}
	}
}

// TestLengths is a sanity check of every transcribed vector's sizes.
func TestLengths(t *testing.T) {
	check := func(t *testing.T, what string, b []byte, sizes ...int) {
		t.Helper()
		for _, n := range sizes {
			if len(b) == n {
				return
			}
		}
		t.Errorf("%s is %d bytes, want one of %v", what, len(b), sizes)
	}
	sources := map[string]bool{}
	seen := func(t *testing.T, src string) {
		t.Helper()
		if src == "" {
			t.Error("empty Source")
		}
		if sources[src] {
			t.Errorf("duplicate Source %q", src)
		}
		sources[src] = true
	}

	for _, v := range RFC8439QuarterRounds {
		seen(t, v.Source)
	}
	for _, v := range RFC8439StateQuarterRounds {
		seen(t, v.Source)
		for _, i := range []int{v.A, v.B, v.C, v.D} {
			if i < 0 || i > 15 {
				t.Errorf("%s: index %d out of range", v.Source, i)
			}
		}
	}
	for _, v := range RFC8439Blocks {
		seen(t, v.Source)
		check(t, v.Source+" key", v.Key, 32)
		check(t, v.Source+" nonce", v.Nonce, 12)
		check(t, v.Source+" keystream", v.Keystream, 64)
	}
	for _, group := range [][]Stream{RFC8439Streams, XChaChaStreams} {
		for _, v := range group {
			seen(t, v.Source)
			check(t, v.Source+" key", v.Key, 32)
			check(t, v.Source+" nonce", v.Nonce, 12, 24)
			check(t, v.Source+" ciphertext", v.Ciphertext, len(v.Plaintext))
		}
	}
	for _, v := range XChaChaStreams {
		check(t, v.Source+" nonce", v.Nonce, 24)
	}
	for _, v := range RFC8439MACs {
		seen(t, v.Source)
		check(t, v.Source+" key", v.Key, 32)
		check(t, v.Source+" tag", v.Tag, 16)
	}
	for _, v := range RFC8439PolyKeys {
		seen(t, v.Source)
		check(t, v.Source+" key", v.Key, 32)
		check(t, v.Source+" nonce", v.Nonce, 12)
		check(t, v.Source+" one-time key", v.OneTimeKey, 32)
	}
	for _, group := range [][]AEAD{RFC8439AEADs, XChaChaAEADs} {
		for _, v := range group {
			seen(t, v.Source)
			check(t, v.Source+" key", v.Key, 32)
			check(t, v.Source+" nonce", v.Nonce, 12, 24)
			check(t, v.Source+" ciphertext", v.Ciphertext, len(v.Plaintext))
			check(t, v.Source+" tag", v.Tag, 16)
		}
	}
	for _, v := range XChaChaAEADs {
		check(t, v.Source+" nonce", v.Nonce, 24)
	}
	for _, v := range XChaChaHChaCha20s {
		seen(t, v.Source)
		check(t, v.Source+" key", v.Key, 32)
		check(t, v.Source+" nonce", v.Nonce, 16)
		check(t, v.Source+" subkey", v.Subkey, 32)
	}

	// The RFC lists 1 + 5 blocks, 1 + 3 streams, 1 + 11 MACs, 1 + 3 key
	// generations (plus the two printed inside the AEAD examples) and 2 AEADs.
	counts := []struct {
		name      string
		got, want int
	}{
		{"RFC8439QuarterRounds", len(RFC8439QuarterRounds), 1},
		{"RFC8439StateQuarterRounds", len(RFC8439StateQuarterRounds), 1},
		{"RFC8439Blocks", len(RFC8439Blocks), 6},
		{"RFC8439Streams", len(RFC8439Streams), 4},
		{"RFC8439MACs", len(RFC8439MACs), 12},
		{"RFC8439PolyKeys", len(RFC8439PolyKeys), 6},
		{"RFC8439AEADs", len(RFC8439AEADs), 2},
		{"XChaChaHChaCha20s", len(XChaChaHChaCha20s), 1},
		{"XChaChaAEADs", len(XChaChaAEADs), 1},
		{"XChaChaStreams", len(XChaChaStreams), 2},
	}
	for _, c := range counts {
		if c.got != c.want {
			t.Errorf("len(%s) = %d, want %d", c.name, c.got, c.want)
		}
	}
}

func TestWycheproofCounts(t *testing.T) {
	loaders := []struct {
		file string
		load func() ([]WycheproofAEADTest, error)
		want int
	}{
		{WycheproofChaCha20Poly1305File, WycheproofChaCha20Poly1305, 325},
		{WycheproofXChaCha20Poly1305File, WycheproofXChaCha20Poly1305, 315},
	}
	for _, l := range loaders {
		t.Run(l.file, func(t *testing.T) {
			tests, err := l.load()
			if err != nil {
				t.Fatal(err)
			}
			valid := 0
			ids := map[int]bool{}
			for _, tc := range tests {
				if tc.Valid {
					valid++
				}
				if ids[tc.TcID] {
					t.Errorf("duplicate tcId %d", tc.TcID)
				}
				ids[tc.TcID] = true
			}
			t.Logf("wycheproof %s: %d cases (%d valid, %d invalid)", l.file, len(tests), valid, len(tests)-valid)
			if len(tests) != l.want {
				t.Errorf("got %d cases, want %d", len(tests), l.want)
			}
		})
	}
}

// TestWycheproofAgainstXCrypto checks that the loader maps the JSON fields
// to the right struct fields: every case whose nonce and tag sizes x/crypto
// accepts must open exactly when it is marked valid.
func TestWycheproofAgainstXCrypto(t *testing.T) {
	loaders := []struct {
		file      string
		load      func() ([]WycheproofAEADTest, error)
		newAEAD   func([]byte) (aeadLike, error)
		nonceSize int
	}{
		{WycheproofChaCha20Poly1305File, WycheproofChaCha20Poly1305, newChaCha, chacha20poly1305.NonceSize},
		{WycheproofXChaCha20Poly1305File, WycheproofXChaCha20Poly1305, newXChaCha, chacha20poly1305.NonceSizeX},
	}
	for _, l := range loaders {
		t.Run(l.file, func(t *testing.T) {
			tests, err := l.load()
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, tc := range tests {
				if len(tc.Nonce) != l.nonceSize || len(tc.Tag) != chacha20poly1305.Overhead {
					if tc.Valid {
						t.Errorf("tcId %d: valid case with %d-byte nonce and %d-byte tag", tc.TcID, len(tc.Nonce), len(tc.Tag))
					}
					continue
				}
				checked++
				a, err := l.newAEAD(tc.Key)
				if err != nil {
					t.Fatalf("tcId %d: %v", tc.TcID, err)
				}
				sealed := append(append([]byte{}, tc.CT...), tc.Tag...)
				pt, err := a.Open(nil, tc.Nonce, sealed, tc.AAD)
				switch {
				case tc.Valid && err != nil:
					t.Errorf("tcId %d (%s): valid case rejected: %v", tc.TcID, tc.Comment, err)
				case tc.Valid && !bytes.Equal(pt, tc.Msg):
					t.Errorf("tcId %d (%s): plaintext mismatch", tc.TcID, tc.Comment)
				case !tc.Valid && err == nil:
					t.Errorf("tcId %d (%s): invalid case accepted", tc.TcID, tc.Comment)
				}
				if tc.Valid {
					if got := a.Seal(nil, tc.Nonce, tc.Msg, tc.AAD); !bytes.Equal(got, sealed) {
						t.Errorf("tcId %d (%s): Seal mismatch", tc.TcID, tc.Comment)
					}
				}
			}
			t.Logf("wycheproof %s: %d cases run through x/crypto", l.file, checked)
		})
	}
}

type aeadLike interface {
	Seal(dst, nonce, plaintext, additionalData []byte) []byte
	Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error)
}

func newChaCha(key []byte) (aeadLike, error)  { return chacha20poly1305.New(key) }
func newXChaCha(key []byte) (aeadLike, error) { return chacha20poly1305.NewX(key) }

// Guard against a silent change in how the RFC's little-endian words and
// serialized bytes relate: the HChaCha20 subkey's first word, printed by the
// draft as 82413b42, is the serialization of state word 0x423b4182.
func TestHChaCha20SubkeyByteOrder(t *testing.T) {
	v := XChaChaHChaCha20s[0]
	if w := binary.LittleEndian.Uint32(v.Subkey[:4]); w != 0x423b4182 {
		t.Errorf("first subkey word = %08x, want 423b4182", w)
	}
}
