// Package tls13 is the ChaCha20-Poly1305 AEAD as TLS 1.3 and QUIC use it:
// record protection for the TLS_CHACHA20_POLY1305_SHA256 cipher suite
// (RFC 8446, Sections 5.2 to 5.4, https://www.rfc-editor.org/rfc/rfc8446#section-5.2)
// and QUIC packet and header protection for the same suite (RFC 9001,
// Sections 5 and 6, https://www.rfc-editor.org/rfc/rfc9001#section-5), with
// keys derived from the traffic secrets that crypto/tls hands out.
//
// It lives under aead/ because it adds no cryptography of its own: it is the
// AEAD of package aead plus the framing that TLS 1.3 and QUIC put around it —
// key and IV derivation with HKDF-Expand-Label, per-record and per-packet
// nonces, record padding and size limits, and QUIC header protection.
//
// crypto/tls has no pluggable cipher suites, so the two users this package
// serves are:
//
//   - QUIC implementations built on crypto/tls's QUIC API ([tls.QUICConn]),
//     which receive each traffic secret in a [tls.QUICSetReadSecret] or
//     [tls.QUICSetWriteSecret] event and protect packets themselves: see
//     [NewPacketProtectorFromEvent] and [PacketProtector];
//   - tools that decrypt or re-encrypt TLS 1.3 traffic from the secrets that
//     [tls.Config.KeyLogWriter] writes (CLIENT_TRAFFIC_SECRET_0 and so on):
//     see [RecordProtector].
//
// Only TLS_CHACHA20_POLY1305_SHA256 is supported; any other suite is refused
// with a [*SuiteError]. QUIC Initial packets always use AES-128-GCM (RFC 9001,
// Section 5.2) and are therefore out of scope.
//
// Nothing here allocates per record or per packet when dst has the capacity:
// HKDF runs once per key, and the header protection mask is one ChaCha20
// block computed on the stack, with no cipher object built per packet.
// Every object holds key material; call Wipe when it is no longer needed.
// The objects are not safe for concurrent use: each keeps a nonce scratch
// buffer, and a RecordProtector its sequence number.
//
// golang.org/x/crypto has no counterpart; what it replaces is the code a QUIC
// implementation or a key-log tool writes around x/crypto's
// chacha20poly1305 and chacha20; it is tested against live crypto/tls
// connections and RFC 9001's examples. The cryptography is that of
// packages aead and chacha20, so the same build tag (purego), GODEBUG
// settings (such as cpu.avx2=off) and CHACHAKIT_IMPL forcing (with the build
// tag chachakit_impl_env) choose its code paths; see their documentation.
package tls13

import (
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"crypto/tls"
	"errors"
	"fmt"

	"github.com/chachakit/chachakit/aead"
	"github.com/chachakit/chachakit/internal/wipe"
)

// Suite is the only cipher suite this package implements.
const Suite = tls.TLS_CHACHA20_POLY1305_SHA256

const (
	// SecretSize is the size of a TLS_CHACHA20_POLY1305_SHA256 traffic
	// secret: the output size of SHA-256.
	SecretSize = sha256.Size

	// KeySize is the size of the AEAD key and of the QUIC header protection
	// key.
	KeySize = 32

	// IVSize is the size of the static IV that is XORed with the sequence or
	// packet number to form each nonce.
	IVSize = 12

	// Overhead is the size of the Poly1305 tag added to every record and
	// packet.
	Overhead = 16
)

// SuiteError reports a cipher suite other than TLS_CHACHA20_POLY1305_SHA256.
type SuiteError struct {
	Suite uint16
}

func (e *SuiteError) Error() string {
	return fmt.Sprintf("tls13: cipher suite %s is not supported, only %s",
		tls.CipherSuiteName(e.Suite), tls.CipherSuiteName(Suite))
}

// CheckSuite returns nil for TLS_CHACHA20_POLY1305_SHA256 and a [*SuiteError]
// naming the suite otherwise. Use it with the suite from
// [tls.ConnectionState.CipherSuite] before keying a [RecordProtector].
func CheckSuite(suite uint16) error {
	if suite != Suite {
		return &SuiteError{Suite: suite}
	}
	return nil
}

var errSecretSize = errors.New("tls13: traffic secret is not 32 bytes (SHA-256)")

// ExpandLabel is HKDF-Expand-Label with SHA-256 (RFC 8446, Section 7.1):
//
//	HKDF-Expand-Label(Secret, Label, Context, Length) =
//	    HKDF-Expand(Secret, HkdfLabel, Length)
//
//	struct {
//	    uint16 length = Length;
//	    opaque label<7..255> = "tls13 " + Label;
//	    opaque context<0..255> = Context;
//	} HkdfLabel;
//
// label is given without the "tls13 " prefix, for example "key", "iv" or
// "quic hp". It allocates; this package calls it once per key, never per
// record or packet.
func ExpandLabel(secret []byte, label string, context []byte, length int) ([]byte, error) {
	const prefix = "tls13 "
	if len(prefix)+len(label) > 255 || len(label) == 0 {
		return nil, errors.New("tls13: HKDF-Expand-Label label must be 1 to 249 bytes")
	}
	if len(context) > 255 {
		return nil, errors.New("tls13: HKDF-Expand-Label context longer than 255 bytes")
	}
	if length < 0 || length > 0xffff {
		return nil, errors.New("tls13: HKDF-Expand-Label length out of range")
	}
	info := make([]byte, 0, 2+1+len(prefix)+len(label)+1+len(context))
	info = append(info, byte(length>>8), byte(length))
	info = append(info, byte(len(prefix)+len(label)))
	info = append(info, prefix...)
	info = append(info, label...)
	info = append(info, byte(len(context)))
	info = append(info, context...)
	return hkdf.Expand(sha256.New, secret, string(info), length)
}

// expandInto fills out with HKDF-Expand-Label(secret, label, "", len(out))
// and clears the temporary that crypto/hkdf returned.
func expandInto(out, secret []byte, label string) error {
	b, err := ExpandLabel(secret, label, nil, len(out))
	if err != nil {
		return err
	}
	copy(out, b)
	wipe.Memclr(b)
	return nil
}

// xorNonce writes iv XOR the big-endian 64-bit n, left-padded with zeros to
// 12 bytes, into nonce: the per-record nonce of RFC 8446, Section 5.3, and
// the per-packet nonce of RFC 9001, Section 5.3.
func xorNonce(nonce, iv *[IVSize]byte, n uint64) {
	*nonce = *iv
	for i := range 8 {
		nonce[IVSize-1-i] ^= byte(n >> (8 * i))
	}
}

// wipeAEAD zeroes the key inside an AEAD from package aead, through the
// aead.Wiper interface that every AEAD of that package implements.
func wipeAEAD(a cipher.AEAD) {
	a.(aead.Wiper).Wipe()
}
