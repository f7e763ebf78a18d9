package trace

import (
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/chachakit/chachakit/aead"
	"github.com/chachakit/chachakit/chacha20"
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/impl"
	"github.com/chachakit/chachakit/internal/poly1305"
	"github.com/chachakit/chachakit/subtle"
)

// Message lengths: both sides of every block (64 bytes) and lane-set
// boundary the kernels and aead's route tables switch at (192 and 448 for
// the small kernels, 960 and 1024 for the mid-size kernel, 1350 a QUIC
// packet; 1034, 1124 and 1724 leave the stitched loops tails of each size
// class of their key-block kernels), then the stitched loops' batches. The
// long lengths run for the implementations this CPU uses by default, 8 KiB
// only for the others (their loops are the same at 16 KiB, and
// single-stepping them costs the most), none with -trace.long=false.
var (
	lengths     = []int{0, 1, 15, 16, 63, 64, 65, 191, 192, 193, 447, 448, 449, 960, 1024, 1034, 1124, 1350, 1724, 2048}
	longLengths = []int{8192, 16384}
	// comboLengths is for the AEAD's Go layer over each pair of kernels,
	// which the ChaCha20 and Poly1305 cases cover alone at every length.
	comboLengths = []int{0, 1, 64, 65, 449, 1350}
	// portableLengths is for the portable code, which valgrind's purego
	// row checks at every length.
	portableLengths = []int{0, 1, 64, 65, 449}
)

// lengthsFor returns the message lengths of implementation name of pkg.
func lengthsFor(pkg, name string) []int {
	if name == impl.Portable {
		return portableLengths
	}
	l := append([]int(nil), lengths...)
	switch {
	case !*flagLong:
	case name == impl.Preferred(pkg):
		l = append(l, longLengths...)
	default:
		l = append(l, longLengths[0])
	}
	return l
}

// adLen is the additional data of most AEAD cases (a TLS record header's
// length); adVariants moves the route tables' additional-data limits.
const adLen = 13

var adVariants = []int{0, 300, 600}

// allCases lists every case this CPU can run: the AEAD under its
// defaults and under each implementation by name, the AEAD's Go layer over
// each ChaCha20 and Poly1305 kernel, ChaCha20, Poly1305 and XORBytes by
// name, the batch interface, and the planted leaks.
func allCases() []*tcase {
	var cs []*tcase

	// The AEAD: this CPU's defaults, and each kernel family by name.
	type config struct{ label, impls, name string }
	configs := []config{{"default", "", impl.Preferred("aead")}}
	for _, name := range names("aead") {
		if name != impl.Portable && name != impl.Preferred("aead") {
			configs = append(configs, config{name, "aead=" + name, name})
		}
	}
	for _, cf := range configs {
		for _, n := range lengthsFor("aead", cf.name) {
			for _, open := range []bool{false, true} {
				cs = append(cs, aeadCase(cf.label, cf.impls, n, adLen, false, open, false))
			}
		}
		for _, n := range []int{1, 64, 192, 960, 2048} {
			for _, ad := range adVariants {
				for _, open := range []bool{false, true} {
					cs = append(cs, aeadCase(cf.label, cf.impls, n, ad, false, open, false))
				}
			}
		}
		for _, n := range []int{0, 64, 1024, 2048} {
			for _, open := range []bool{false, true} {
				cs = append(cs, aeadCase(cf.label, cf.impls, n, adLen, true, open, false))
			}
		}
		for _, n := range []int{64, 960, 2048} {
			for _, open := range []bool{false, true} {
				cs = append(cs, aeadCase(cf.label, cf.impls, n, adLen, false, open, true))
			}
		}
		for i, mix := range batchMixes {
			if i == len(batchMixes)-1 && cf.label != "default" {
				break // the long messages: under the defaults only
			}
			for _, open := range []bool{false, true} {
				cs = append(cs, batchCase(cf.label, cf.impls, mix, open))
			}
		}
	}

	// The AEAD's Go layer (seal and open in passes) over each ChaCha20
	// kernel, paired in turn with each Poly1305 kernel.
	cn, pn := names("chacha20"), names("poly1305")
	if available("aead", impl.Portable) {
		for k := range max(len(cn), len(pn)) {
			c, p := cn[k%len(cn)], pn[k%len(pn)]
			spec := fmt.Sprintf("aead=Go,chacha20=%s,poly1305=%s", c, p)
			label := fmt.Sprintf("Go+%s+%s", c, p)
			ls := comboLengths
			if c == impl.Portable || p == impl.Portable {
				ls = portableLengths
			}
			for _, n := range ls {
				for _, open := range []bool{false, true} {
					cs = append(cs, aeadCase(label, spec, n, adLen, false, open, false))
				}
			}
		}
	}

	// The batch groups' lanes (chacha20core.LaneBlocks, poly1305's lanes)
	// of each ChaCha20 and Poly1305 kernel, under the AEAD's Go layer.
	if available("aead", impl.Portable) {
		for _, spec := range laneSpecs(cn, pn) {
			for _, open := range []bool{false, true} {
				cs = append(cs, batchCase("Go+"+spec, "aead=Go,"+spec, batchMixes[0], open))
			}
		}
	}

	// ChaCha20, Poly1305 and XORBytes, each implementation by name.
	for _, name := range cn {
		for _, n := range lengthsFor("chacha20", name) {
			cs = append(cs, streamCase(name, n, false))
		}
		for _, n := range []int{65, 449, 2048} {
			if n > 449 && name == impl.Portable {
				break
			}
			cs = append(cs, streamCase(name, n, true))
		}
		cs = append(cs, hchachaCase(name))
	}
	for _, name := range pn {
		for _, n := range lengthsFor("poly1305", name) {
			cs = append(cs, polyCase(name, n, false))
		}
		for _, n := range []int{0, 64, 1350} {
			cs = append(cs, polyCase(name, n, true))
		}
	}
	for _, name := range names("subtle") {
		for _, n := range lengthsFor("subtle", name) {
			cs = append(cs, xorCase(name, n))
		}
	}

	return append(cs, plantedCases()...)
}

// laneSpecs returns one registry spec per ChaCha20 and Poly1305
// implementation but the portable ones: each ChaCha20 kernel with the
// portable Poly1305, each Poly1305 kernel with the default ChaCha20 (the
// groups take lanes only where the keystream's are fast).
func laneSpecs(cn, pn []string) []string {
	var l []string
	for _, c := range cn {
		if c != impl.Portable {
			l = append(l, "chacha20="+c+",poly1305="+impl.Portable)
		}
	}
	for _, p := range pn {
		if p != impl.Portable {
			l = append(l, "poly1305="+p)
		}
	}
	return l
}

// fill draws b from rng: the secrets of one run.
func fill(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

// public returns n bytes that are the same in every run: nonces and
// additional data, which are public.
func public(n, salt int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*131 + salt*17 + 5)
	}
	return b
}

// aeadCase seals or opens an n-byte message with adLen bytes of
// additional data under a new random key and plaintext each run (a
// 24-byte nonce with x; in place, the output over the input, with
// inPlace). An Open opens what Seal gave for that run's key and
// plaintext, so that its tag is valid and it takes the same path each time.
func aeadCase(label, impls string, n, adLen int, x, open, inPlace bool) *tcase {
	newAEAD, nonceSize, op := aead.New, aead.NonceSize, "seal"
	if x {
		newAEAD, nonceSize = aead.NewX, aead.NonceSizeX
	}
	if open {
		op = "open"
	}
	if x {
		op += "X"
	}
	if inPlace {
		op += "-inplace"
	}
	nonce, ad := public(nonceSize, n), public(adLen, n+1)
	key := make([]byte, aead.KeySize)
	pt := make([]byte, n)
	sealed := make([]byte, n+aead.Overhead)
	out := make([]byte, n+aead.Overhead)
	var a cipher.AEAD
	c := &tcase{name: fmt.Sprintf("aead/%s/%s/n=%d/ad=%d", label, op, n, adLen), impls: impls}
	c.prep = func(rng *rand.Rand) {
		fill(rng, key)
		fill(rng, pt)
		var err error
		if a, err = newAEAD(key); err != nil {
			panic(err)
		}
		switch {
		case open:
			a.Seal(sealed[:0], nonce, pt, ad)
		case inPlace:
			copy(sealed, pt)
		}
	}
	switch {
	case !open && !inPlace:
		c.run = func() error { a.Seal(out[:0], nonce, pt, ad); return nil }
	case !open:
		c.run = func() error { a.Seal(sealed[:0], nonce, sealed[:n], ad); return nil }
	case !inPlace:
		c.run = func() error { _, err := a.Open(out[:0], nonce, sealed, ad); return err }
	default:
		c.run = func() error { _, err := a.Open(sealed[:0], nonce, sealed, ad); return err }
	}
	return c
}

// batchMixes are the message lengths of the batch cases: short messages
// only (the lanes of the batch kernels), a mixed batch, and QUIC packets.
var batchMixes = [][]int{
	{64, 64, 64, 64, 0, 33, 128, 16},
	{0, 1, 64, 100, 256, 1000, 1350, 2048},
	{1350, 1350, 1350, 1350},
}

// batchCase seals or opens a batch of messages of the lengths mix under
// one random key, with random plaintexts.
func batchCase(label, impls string, mix []int, open bool) *tcase {
	op := "sealbatch"
	if open {
		op = "openbatch"
	}
	key := make([]byte, aead.KeySize)
	msgs := make([]aead.Message, len(mix))
	pts, sealed, outs, nonces, ads := make([][]byte, len(mix)), make([][]byte, len(mix)),
		make([][]byte, len(mix)), make([][]byte, len(mix)), make([][]byte, len(mix))
	for i, n := range mix {
		pts[i], sealed[i], outs[i] = make([]byte, n), make([]byte, n+aead.Overhead), make([]byte, n+aead.Overhead)
		nonces[i], ads[i] = public(aead.NonceSize, i), public(i%3*7, i)
	}
	var b aead.Batch
	c := &tcase{name: fmt.Sprintf("aead/%s/%s/n=%s", label, op, joinInts(mix)), impls: impls}
	c.prep = func(rng *rand.Rand) {
		fill(rng, key)
		a, err := aead.New(key)
		if err != nil {
			panic(err)
		}
		b = a.(aead.Batch)
		for i := range msgs {
			fill(rng, pts[i])
			text := pts[i]
			if open {
				text = a.Seal(sealed[i][:0], nonces[i], pts[i], ads[i])
			}
			msgs[i] = aead.Message{Dst: outs[i][:0], Nonce: nonces[i], Text: text, AdditionalData: ads[i]}
		}
	}
	if open {
		c.run = func() error { return b.OpenBatch(msgs) }
	} else {
		c.run = func() error { b.SealBatch(msgs); return nil }
	}
	return c
}

// joinInts writes l as "1+2+3": case names have no spaces.
func joinInts(l []int) string {
	s := make([]string, len(l))
	for i, n := range l {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, "+")
}

// streamCase XORs the keystream of a random key into a random n-byte
// message, in one call or (split) in three calls of lengths that are not
// multiples of the block size, so that the buffered keystream carries over.
func streamCase(name string, n int, split bool) *tcase {
	op := "xor"
	if split {
		op = "xor-split"
	}
	key := make([]byte, chacha20.KeySize)
	nonce := public(chacha20.NonceSize, n)
	src, dst := make([]byte, n), make([]byte, n)
	var s chacha20.Cipher
	c := &tcase{name: fmt.Sprintf("chacha20/%s/%s/n=%d", name, op, n), impls: "chacha20=" + name}
	c.prep = func(rng *rand.Rand) {
		fill(rng, key)
		fill(rng, src)
		// A new Cipher: Init sets the key and nonce, not the buffered
		// keystream of the last run.
		s = chacha20.Cipher{}
		if _, err := chacha20.InitUnauthenticatedCipher(&s, key, nonce); err != nil {
			panic(err)
		}
	}
	if split {
		i, j := n/3, n/3+n/5
		c.run = func() error {
			s.XORKeyStream(dst[:i], src[:i])
			s.XORKeyStream(dst[i:j], src[i:j])
			s.XORKeyStream(dst[j:], src[j:])
			return nil
		}
	} else {
		c.run = func() error { s.XORKeyStream(dst, src); return nil }
	}
	return c
}

// hchachaCase derives an XChaCha20 subkey from a random key.
func hchachaCase(name string) *tcase {
	var key, out [32]byte
	nonce := [16]byte(public(16, 0))
	return &tcase{
		name:  "chacha20/" + name + "/hchacha20",
		impls: "chacha20=" + name,
		prep:  func(rng *rand.Rand) { fill(rng, key[:]) },
		run:   func() error { chacha20core.HChaCha20(&out, &key, &nonce); return nil },
	}
}

// polyCase computes the Poly1305 tag of a random n-byte message under a
// random one-time key, or (aead) the tag of the AEAD construction over
// 13 bytes of public additional data and an n-byte ciphertext.
func polyCase(name string, n int, aeadForm bool) *tcase {
	var key [poly1305.KeySize]byte
	var tag [poly1305.TagSize]byte
	msg := make([]byte, n)
	ad := public(adLen, n)
	op := "sum"
	if aeadForm {
		op = "sumaead"
	}
	c := &tcase{name: fmt.Sprintf("poly1305/%s/%s/n=%d", name, op, n), impls: "poly1305=" + name}
	c.prep = func(rng *rand.Rand) {
		fill(rng, key[:])
		fill(rng, msg)
	}
	if aeadForm {
		c.run = func() error { poly1305.SumAEAD(&tag, &key, ad, msg); return nil }
	} else {
		c.run = func() error { poly1305.Sum(&tag, msg, &key); return nil }
	}
	return c
}

// xorCase XORs two random n-byte slices.
func xorCase(name string, n int) *tcase {
	x, y, dst := make([]byte, n), make([]byte, n), make([]byte, n)
	return &tcase{
		name:  fmt.Sprintf("subtle/%s/xorbytes/n=%d", name, n),
		impls: "subtle=" + name,
		prep:  func(rng *rand.Rand) { fill(rng, x); fill(rng, y) },
		run:   func() error { subtle.XORBytes(dst, x, y); return nil },
	}
}
