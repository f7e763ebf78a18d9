//go:build gc && !purego

package aeadasm

//go:generate go run -C ../../_asm . -gen lanesaead -out ../internal/aeadasm/lanes_amd64.s -pkg aeadasm

// sealLanesAVX512 and openLanesAVX512 (lanes_amd64.s, _asm/lanes_aead.go):
// the count messages of l under key, in one 16-lane batch of key and text
// blocks and eight IFMA lanes of MACs; adBlocks and ctBlocks are the most
// 16-byte blocks of additional data and of text of any message. Each
// message's output text goes to l.Out and its tag to l.Tags.
//
//go:noescape
func sealLanesAVX512(key *[32]byte, l *Lanes, count, adBlocks, ctBlocks int)

//go:noescape
func openLanesAVX512(key *[32]byte, l *Lanes, count, adBlocks, ctBlocks int)

// SealLanes seals the messages of l (at least one) under key, as Seal would
// each: message i's ciphertext goes to l.Out[i] and its tag to l.Tags[i].
// LanesAVX512 must be available.
func SealLanes(key *[32]byte, l *Lanes) {
	sealLanesAVX512(key, l, l.checkCount(), blocks(l.adMax), blocks(l.textMax))
}

// OpenLanes decrypts the messages of l (at least one) under key into l.Out
// and puts the tag each ciphertext should have in l.Tags: the caller
// compares it with the message's tag and copies out only the plaintexts
// whose tags match, and wipes l.Out. LanesAVX512 must be available.
func OpenLanes(key *[32]byte, l *Lanes) {
	openLanesAVX512(key, l, l.checkCount(), blocks(l.adMax), blocks(l.textMax))
}

func (l *Lanes) checkCount() int {
	if l.count < 1 || l.count > LanesMax {
		panic("chacha20poly1305: internal error: bad message count for the batch kernel")
	}
	return l.count
}

// blocks is the number of 16-byte blocks of n bytes.
func blocks(n int) int { return (n + 15) / 16 }
