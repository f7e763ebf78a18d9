// Package aead implements the ChaCha20-Poly1305 AEAD and its extended-nonce
// variant XChaCha20-Poly1305, as specified in RFC 8439, Section 2.8
// (https://www.rfc-editor.org/rfc/rfc8439#section-2.8) and
// draft-irtf-cfrg-xchacha-03
// (https://datatracker.ietf.org/doc/html/draft-irtf-cfrg-xchacha-03).
//
// It is a drop-in replacement for golang.org/x/crypto/chacha20poly1305:
//
//	import chacha20poly1305 "github.com/chachakit/chachakit/aead"
//
// keeps every signature, constant, error value text and panic text, and gives
// byte-identical results. Like x/crypto it refuses to run in FIPS 140-only
// mode, returns a zeroed dst region after a failed Open, and allocates nothing
// per Seal or Open when dst has the capacity. It adds [NewXWithRandomNonce],
// [Wiper] to erase an AEAD's key, and [Batch] to seal or open many messages
// in one call.
//
// # Guarantees
//
// A failed Open returns an error and leaves no plaintext in dst: the region
// Open would have written is all zeros when it returns. In purego builds, on
// architectures other than amd64 and arm64, for short messages and for every
// message of a [Batch], Open compares the tag before it writes anything. For
// longer messages, the assembly of amd64 (with AVX2 and BMI2) and of most
// arm64 cores decrypts in the same pass that authenticates, as x/crypto's
// amd64 assembly does at every length, and zeroes what it wrote before Open
// returns the error; until Open returns, dst may hold unauthenticated
// plaintext, so no other goroutine may read it. The internal package of the
// amd64 and arm64 assembly documents which lengths take which path.
//
// The AEADs are safe for concurrent use, except for Wipe. Seal, Open and the
// batch methods clear the keystream, the Poly1305 one-time key and the
// XChaCha20 subkey they derived before they return.
//
// # Where it differs from x/crypto
//
//   - Open with a dst that overlaps only the tag (the output starts where
//     the tag does) works on every path. x/crypto's amd64 assembly writes
//     plaintext over the tag before it checks it and rejects such genuine
//     messages; chachakit gives the result of x/crypto's portable code.
//   - The overlap checks use pointer arithmetic in every build, so a
//     -tags purego build allocates nothing per call (x/crypto's purego build
//     does, through reflect).
//   - Poly1305 is this module's own, so that its state can be wiped; it is
//     tested against golang.org/x/crypto/poly1305.
//   - The AEADs of New and NewX implement [Wiper] and [Batch], reached by a
//     type assertion, since the constructors keep x/crypto's signature.
//
// # Choosing the code path
//
// At start-up the package picks the fastest code the CPU has, from the
// features that golang.org/x/sys/cpu reports and, on amd64 and arm64, from
// the CPU family, whose measured differences are tabled in internal/cpuid
// (bench/README.md has the measurements). Every path gives the same bytes;
// only speed and the Open behaviour described above differ. These settings
// change the choice:
//
//   - The build tag purego compiles no assembly: every path is portable Go.
//   - GODEBUG, read by golang.org/x/sys/cpu when the program starts, switches
//     CPU features off. On amd64: cpu.avx512f=off leaves the AVX2 code;
//     cpu.avx512ifma=off switches off the batch kernel of [Batch], whose
//     MACs run in IFMA lanes; cpu.bmi2=off the separate passes of package chacha20
//     and Poly1305 instead of the one-pass AEAD code; cpu.avx2=off the SSSE3
//     keystream and a scalar Poly1305. On arm64: cpu.sve2=off leaves the NEON
//     code, cpu.asimd=off the scalar code. cpu.all=off switches off every
//     feature x/sys/cpu lets it.
//   - The build tag chachakit_impl_env makes the library read
//     CHACHAKIT_IMPL=pkg=Name,... from the environment and force those paths
//     for the whole process, for tests and benchmarks; without the tag the
//     library reads no environment variable.
//
// `go run ./bench` in the module prints the path chosen on the machine it
// runs on, and `go run ./bench -v` the names that CHACHAKIT_IMPL takes.
package aead

import (
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"unsafe"

	"github.com/chachakit/chachakit/internal/tally"
	"github.com/chachakit/chachakit/internal/wipe"
)

const (
	// KeySize is the size of the key used by this AEAD, in bytes.
	KeySize = 32

	// NonceSize is the size of the nonce used with the standard variant of
	// this AEAD, in bytes.
	//
	// Note that this is too short to be safely generated at random if the
	// same key is reused more than 2³² times.
	NonceSize = 12

	// NonceSizeX is the size of the nonce used with the XChaCha20-Poly1305
	// variant of this AEAD, in bytes.
	NonceSizeX = 24

	// Overhead is the size of the Poly1305 authentication tag, and the
	// difference between a ciphertext length and its plaintext.
	Overhead = 16
)

// The largest plaintext and ciphertext: the 32-bit block counter starts at 1
// for the message, leaving 2^32-1 blocks of 64 bytes (RFC 8439, Section 2.8).
// The bounds are x/crypto's, which keep one more block in reserve.
const (
	maxPlaintext  = 1<<38 - 64
	maxCiphertext = 1<<38 - 48
)

var (
	errFIPS   = errors.New("chacha20poly1305: use of ChaCha20Poly1305 is not allowed in FIPS 140-only mode")
	errKeyLen = errors.New("chacha20poly1305: bad key length")
	errOpen   = errors.New("chacha20poly1305: message authentication failed")
)

// Wiper is implemented by the AEADs that New and NewX return. Wipe zeroes
// the key in a way the compiler cannot remove; any later Seal or Open
// panics. Wipe must not run concurrently with Seal or Open.
//
// New and NewX keep x/crypto's signature, returning a cipher.AEAD, so reach
// the method with a type assertion:
//
//	a, err := aead.New(key)
//	...
//	defer a.(aead.Wiper).Wipe()
//
// Wipe is the wipe an AEAD's key gets. An AEAD is one allocation holding
// its key, as in x/crypto, and nothing wipes it at garbage collection: a
// cleanup per AEAD, or one per group of AEADs, costs more than x/crypto's
// whole New (bench/README.md has the numbers), and chachakit does not make
// a caller who never calls Wipe pay for it. Built with
// GOEXPERIMENT=runtimesecret on linux/amd64 or linux/arm64, New and NewX
// allocate the AEAD inside runtime/secret.Do, and the runtime erases it
// once it is unreachable. Seal and Open clear their per-message secrets
// (the Poly1305 key, keystream blocks, the XChaCha20 subkey) before they
// return. See package runtimehooks for what a wipe cannot reach.
type Wiper interface {
	Wipe()
}

// key is an AEAD's key, held in the AEAD itself as in x/crypto: 32 bytes,
// one allocation in the same size class as x/crypto's, so that New costs
// what x/crypto's does (a flag beside the key put it in the 48-byte class,
// which measured slower: bench/README.md, "Construction"). New and NewX
// allocate it inside wipe.Do, so that in a build with runtime/secret the
// runtime erases it once it is unreachable.
//
// Wipe leaves the key all zero, and an all-zero key is what marks a wiped
// AEAD. The all-zero key is also a valid key (x/crypto takes it): New and
// NewX give it AEADs of their own types, zeroChaCha20Poly1305 and
// zeroXChaCha20Poly1305, which keep a wiped flag beside the key and pay
// for it alone. Telling the cases apart branches on one bit of the key,
// whether all 256 are zero, as crypto/ecdh branches on an all-zero X25519
// result: for any other key the branch reveals only whether Wipe ran.
type key struct {
	// The key's 32 bytes, as words so that isZero reads them as such;
	// bytes gives them as the byte array the kernels take.
	w0, w1, w2, w3 uint64
}

// bytes returns the key's bytes.
func (k *key) bytes() *[KeySize]byte { return (*[KeySize]byte)(unsafe.Pointer(k)) }

// isZero reports whether every byte of the key is zero, reading all of them.
func (k *key) isZero() bool { return k.w0|k.w1|k.w2|k.w3 == 0 }

// get returns the key, panicking after Wipe.
func (k *key) get() *[KeySize]byte {
	if k.isZero() {
		panicWiped()
	}
	return k.bytes()
}

func (k *key) Wipe() { wipe.Memclr(k.bytes()[:]) }

func panicWiped() { panic("chacha20poly1305: use of an AEAD after Wipe") }

// keyRef is how an AEAD's methods hand its key to the code they share: the
// key and, for an AEAD made from the all-zero key, its wiped flag.
type keyRef struct {
	k     *key
	wiped *bool // nil unless the key was made all zero by New or NewX
}

// get returns the key, panicking after Wipe.
func (r keyRef) get() *[KeySize]byte {
	if r.k.isZero() {
		r.checkZero()
	}
	return (*[KeySize]byte)(unsafe.Pointer(r.k))
}

// checkZero panics unless an all-zero key is the key the AEAD was made
// from and it was not wiped.
//
//go:noinline
func (r keyRef) checkZero() {
	if r.wiped == nil || *r.wiped {
		panicWiped()
	}
}

func (r keyRef) wipe() {
	r.k.Wipe()
	if r.wiped != nil {
		*r.wiped = true
	}
}

type chacha20poly1305 struct{ key }

type xchacha20poly1305 struct{ key }

func (c *chacha20poly1305) ref() keyRef  { return keyRef{k: &c.key} }
func (x *xchacha20poly1305) ref() keyRef { return keyRef{k: &x.key} }

// zeroChaCha20Poly1305 and zeroXChaCha20Poly1305 are the AEADs of the
// all-zero key (see key): the same methods, with the wiped flag.
type zeroChaCha20Poly1305 struct {
	chacha20poly1305
	wiped bool
}

type zeroXChaCha20Poly1305 struct {
	xchacha20poly1305
	wiped bool
}

func (z *zeroChaCha20Poly1305) ref() keyRef  { return keyRef{&z.key, &z.wiped} }
func (z *zeroXChaCha20Poly1305) ref() keyRef { return keyRef{&z.key, &z.wiped} }

func (z *zeroChaCha20Poly1305) Wipe()  { z.ref().wipe() }
func (z *zeroXChaCha20Poly1305) Wipe() { z.ref().wipe() }

// get returns the all-zero key, panicking after Wipe.
func (z *zeroChaCha20Poly1305) get() *[KeySize]byte {
	if z.wiped {
		panicWiped()
	}
	return z.bytes()
}

func (z *zeroXChaCha20Poly1305) get() *[KeySize]byte {
	if z.wiped {
		panicWiped()
	}
	return z.bytes()
}

// The zero-key AEADs' Seal and Open are those of the other AEADs with the
// zero-key get; XChaCha20 always takes seal's 24-byte-nonce path (the
// subkey-first one is a speed-up of a few nanoseconds on some cores).

func (z *zeroChaCha20Poly1305) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	tally.Seal()
	sealChecks(nonce, NonceSize, plaintext)
	return seal(z.get(), nonce, dst, plaintext, additionalData, -1)
}

func (z *zeroChaCha20Poly1305) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	tally.Open()
	if !openChecks(nonce, NonceSize, ciphertext) {
		return nil, errOpen
	}
	return open(z.get(), nonce, dst, ciphertext, additionalData, -1)
}

func (z *zeroXChaCha20Poly1305) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	tally.Seal()
	sealChecks(nonce, NonceSizeX, plaintext)
	return seal(z.get(), nonce, dst, plaintext, additionalData, -1)
}

func (z *zeroXChaCha20Poly1305) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	tally.Open()
	if !openChecks(nonce, NonceSizeX, ciphertext) {
		return nil, errOpen
	}
	return open(z.get(), nonce, dst, ciphertext, additionalData, -1)
}

// isZeroKey reports whether b, a 32-byte key, is all zero, reading all of it.
func isZeroKey(b []byte) bool {
	_ = b[KeySize-1]
	return binary.LittleEndian.Uint64(b[0:])|binary.LittleEndian.Uint64(b[8:])|
		binary.LittleEndian.Uint64(b[16:])|binary.LittleEndian.Uint64(b[24:]) == 0
}

// New returns a ChaCha20-Poly1305 AEAD that uses the given 256-bit key.
func New(key []byte) (cipher.AEAD, error) {
	if fips140Enforced() {
		return nil, errFIPS
	}
	if len(key) != KeySize {
		return nil, errKeyLen
	}
	if isZeroKey(key) {
		return new(zeroChaCha20Poly1305), nil
	}
	var c *chacha20poly1305
	wipe.Do(func() {
		c = new(chacha20poly1305)
		copy(c.bytes()[:], key)
	})
	return c, nil
}

// NewX returns a XChaCha20-Poly1305 AEAD that uses the given 256-bit key.
//
// XChaCha20-Poly1305 is a ChaCha20-Poly1305 variant that takes a longer
// nonce, suitable to be generated randomly without risk of collisions. It
// should be preferred when nonce uniqueness cannot be trivially ensured, or
// whenever nonces are randomly generated.
func NewX(key []byte) (cipher.AEAD, error) {
	if fips140Enforced() {
		return nil, errFIPS
	}
	if len(key) != KeySize {
		return nil, errKeyLen
	}
	if isZeroKey(key) {
		return new(zeroXChaCha20Poly1305), nil
	}
	var x *xchacha20poly1305
	wipe.Do(func() {
		x = new(xchacha20poly1305)
		copy(x.bytes()[:], key)
	})
	return x, nil
}

func (*chacha20poly1305) NonceSize() int  { return NonceSize }
func (*chacha20poly1305) Overhead() int   { return Overhead }
func (*xchacha20poly1305) NonceSize() int { return NonceSizeX }
func (*xchacha20poly1305) Overhead() int  { return Overhead }

func (c *chacha20poly1305) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	tally.Seal()
	sealChecks(nonce, NonceSize, plaintext)
	return seal(c.get(), nonce, dst, plaintext, additionalData, -1)
}

func (c *chacha20poly1305) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	tally.Open()
	if !openChecks(nonce, NonceSize, ciphertext) {
		return nil, errOpen
	}
	return open(c.get(), nonce, dst, ciphertext, additionalData, -1)
}

func (x *xchacha20poly1305) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	tally.Seal()
	sealChecks(nonce, NonceSizeX, plaintext)
	if len(plaintext) <= subkeyFirstMax {
		var sk subkey
		defer sk.wipe()
		key, nonce := sk.derive(x.get(), nonce)
		return seal(key, nonce, dst, plaintext, additionalData, -1)
	}
	return seal(x.get(), nonce, dst, plaintext, additionalData, -1)
}

func (x *xchacha20poly1305) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	tally.Open()
	if !openChecks(nonce, NonceSizeX, ciphertext) {
		return nil, errOpen
	}
	if len(ciphertext)-Overhead <= subkeyFirstMax {
		var sk subkey
		defer sk.wipe()
		key, nonce := sk.derive(x.get(), nonce)
		return open(key, nonce, dst, ciphertext, additionalData, -1)
	}
	return open(x.get(), nonce, dst, ciphertext, additionalData, -1)
}

// sealChecks panics as Seal does on a nonce of the wrong size or a
// plaintext too long for the 32-bit block counter. XChaCha20 has a 64-bit
// counter in principle, but the construction reuses ChaCha20-Poly1305 and
// inherits its limit, as x/crypto does.
func sealChecks(nonce []byte, nonceSize int, plaintext []byte) {
	if len(nonce) != nonceSize {
		panic("chacha20poly1305: bad nonce length passed to Seal")
	}
	if uint64(len(plaintext)) > maxPlaintext {
		panic("chacha20poly1305: plaintext too large")
	}
}

// openChecks panics as Open does on a nonce of the wrong size or a
// ciphertext too long, and reports whether the ciphertext holds a tag (Open
// fails without a panic if not).
func openChecks(nonce []byte, nonceSize int, ciphertext []byte) bool {
	if len(nonce) != nonceSize {
		panic("chacha20poly1305: bad nonce length passed to Open")
	}
	if len(ciphertext) < Overhead {
		return false
	}
	if uint64(len(ciphertext)) > maxCiphertext {
		panic("chacha20poly1305: ciphertext too large")
	}
	return true
}
