package main

import (
	"crypto/cipher"
	"encoding/binary"

	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"

	"github.com/chachakit/chachakit/aead"
	ckchacha20 "github.com/chachakit/chachakit/chacha20"
)

// A construction is a call pattern that makes a cipher object per packet or
// per message, written out for each library as its users write it: the
// constructors are called directly (not through a library value), so that
// a Cipher that does not escape can stay on the stack, as it does in those
// programs.
type construction struct {
	name, desc   string
	ours, theirs func(n int) // the pattern n times
}

var constructions = []construction{
	{"HeaderMask", "QUIC header protection (quic-go): NewUnauthenticatedCipher(hp, sample[4:]), SetCounter, 5 bytes",
		func(n int) { loopHeaderMask(n, ckHeaderMask) }, func(n int) { loopHeaderMask(n, xHeaderMask) }},
	{"SSHPacket", "x/crypto/ssh chacha20-poly1305@openssh.com: two ciphers, 64 + 4 bytes",
		func(n int) { loopSSH(n, ckSSHKeys) }, func(n int) { loopSSH(n, xSSHKeys) }},
	{"New", "aead.New",
		func(n int) { loopNew(n, aead.New) }, func(n int) { loopNew(n, chacha20poly1305.New) }},
	{"New+Seal64", "aead.New, then Seal of 64 bytes",
		func(n int) { loopNewSeal(n, aead.New) }, func(n int) { loopNewSeal(n, chacha20poly1305.New) }},
	{"NewX+Seal64", "aead.NewX, then Seal of 64 bytes",
		func(n int) { loopNewSeal(n, aead.NewX) }, func(n int) { loopNewSeal(n, chacha20poly1305.NewX) }},
}

// The header protection key and the ciphertext sample (RFC 9001, Section
// 5.4.2), varied per packet by the loop.
var (
	hpKey    = pattern(32, 0x90)
	hpSample = pattern(16, 0x10)
)

func loopHeaderMask(n int, mask func(*[5]byte, []byte, []byte)) {
	var m [5]byte
	sample := [16]byte(hpSample)
	for i := range n {
		sample[15] = byte(i)
		mask(&m, hpKey, sample[:])
	}
	sinkByte = m[0]
}

// ckHeaderMask and xHeaderMask are quic-go's chachaHeaderProtector.apply
// (internal/handshake/header_protector.go) with each library.
func ckHeaderMask(mask *[5]byte, hp, sample []byte) {
	clear(mask[:])
	c, err := ckchacha20.NewUnauthenticatedCipher(hp, sample[4:])
	if err != nil {
		panic(err)
	}
	c.SetCounter(binary.LittleEndian.Uint32(sample[:4]))
	c.XORKeyStream(mask[:], mask[:])
}

func xHeaderMask(mask *[5]byte, hp, sample []byte) {
	clear(mask[:])
	c, err := chacha20.NewUnauthenticatedCipher(hp, sample[4:])
	if err != nil {
		panic(err)
	}
	c.SetCounter(binary.LittleEndian.Uint32(sample[:4]))
	c.XORKeyStream(mask[:], mask[:])
}

func loopSSH(n int, keys func(polyKey *[32]byte, length *[4]byte, seq uint32)) {
	var polyKey [32]byte
	length := [4]byte{0, 0, 5, 0}
	for i := range n {
		keys(&polyKey, &length, uint32(i))
	}
	sinkByte = polyKey[0] ^ length[0]
}

// ckSSHKeys and xSSHKeys are the per-packet cipher work of x/crypto/ssh's
// chacha20Poly1305Cipher (cipher.go) with each library: the content
// cipher's first 64 bytes (the Poly1305 key, then 32 bytes skipped) and the
// length cipher's 4 bytes. They are two copies rather than one generic
// function, because a constructor passed as a value would not inline and
// its Cipher would escape.
func ckSSHKeys(polyKey *[32]byte, length *[4]byte, seq uint32) {
	var nonce [12]byte
	binary.BigEndian.PutUint32(nonce[8:], seq)
	s, err := ckchacha20.NewUnauthenticatedCipher(sshContentKey, nonce[:])
	if err != nil {
		panic(err)
	}
	var discard [32]byte
	clear(polyKey[:])
	s.XORKeyStream(polyKey[:], polyKey[:])
	s.XORKeyStream(discard[:], discard[:])
	ls, err := ckchacha20.NewUnauthenticatedCipher(sshLengthKey, nonce[:])
	if err != nil {
		panic(err)
	}
	ls.XORKeyStream(length[:], length[:])
}

func xSSHKeys(polyKey *[32]byte, length *[4]byte, seq uint32) {
	var nonce [12]byte
	binary.BigEndian.PutUint32(nonce[8:], seq)
	s, err := chacha20.NewUnauthenticatedCipher(sshContentKey, nonce[:])
	if err != nil {
		panic(err)
	}
	var discard [32]byte
	clear(polyKey[:])
	s.XORKeyStream(polyKey[:], polyKey[:])
	s.XORKeyStream(discard[:], discard[:])
	ls, err := chacha20.NewUnauthenticatedCipher(sshLengthKey, nonce[:])
	if err != nil {
		panic(err)
	}
	ls.XORKeyStream(length[:], length[:])
}

var (
	sshContentKey = pattern(32, 0xa0)
	sshLengthKey  = pattern(32, 0xc0)
)

func loopNew(n int, newAEAD func([]byte) (cipher.AEAD, error)) {
	key := testKey()
	for range n {
		sinkAEAD = must(newAEAD(key))
	}
	sinkAEAD = nil
}

// loopNewSeal is a per-message AEAD, as in single-shot HPKE or a key per
// file: a new AEAD for every 64-byte message.
func loopNewSeal(n int, newAEAD func([]byte) (cipher.AEAD, error)) {
	key, pt, ad := testKey(), pattern(64, 0), pattern(adLen, 0x50)
	out := make([]byte, 0, 64+aead.Overhead)
	var nonce []byte
	for i := range n {
		key[0] = byte(i)
		a := must(newAEAD(key))
		if nonce == nil {
			nonce = pattern(a.NonceSize(), 0x40)
		}
		out = a.Seal(out[:0], nonce, pt, ad)
	}
	sinkByte = out[0]
}

// Sinks keep the results alive, so that no loop is optimised away; they are
// written and never read, on purpose.
var (
	//lint:ignore U1000 written to keep the loops' results
	sinkByte byte
	//lint:ignore U1000 written to keep the AEADs escaping, as in real use
	sinkAEAD cipher.AEAD
)
