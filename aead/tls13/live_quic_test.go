//go:build go1.26

// The live QUIC test reads handshake failures from QUICErrorEvent, new in Go 1.26.

package tls13_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/chachakit/chachakit/aead/tls13"
)

// This file drives a crypto/tls QUIC client and server by hand, in memory.
// CRYPTO data travels in packets: Initial packets in the clear (RFC 9001
// protects them with AES-128-GCM, which is not this package's business),
// Handshake packets with long headers and 1-RTT packets with short headers,
// both protected by PacketProtector, header protection included, with keys
// each side builds from its own QUICSetReadSecret and QUICSetWriteSecret
// events.

// QUIC packet number spaces (RFC 9000, Section 12.3).
const (
	spaceInitial = iota
	spaceHandshake
	spaceApplication
)

func spaceOf(l tls.QUICEncryptionLevel) int {
	switch l {
	case tls.QUICEncryptionLevelInitial:
		return spaceInitial
	case tls.QUICEncryptionLevelHandshake:
		return spaceHandshake
	}
	return spaceApplication
}

// appendVarint appends a QUIC variable-length integer (RFC 9000, 16).
func appendVarint(b []byte, v uint64) []byte {
	switch {
	case v < 1<<6:
		return append(b, byte(v))
	case v < 1<<14:
		return binary.BigEndian.AppendUint16(b, uint16(v)|0x4000)
	case v < 1<<30:
		return binary.BigEndian.AppendUint32(b, uint32(v)|0x8000_0000)
	}
	return binary.BigEndian.AppendUint64(b, v|0xc000_0000_0000_0000)
}

// readVarint reads a QUIC variable-length integer.
func readVarint(b []byte) (v uint64, n int, err error) {
	if len(b) == 0 {
		return 0, 0, errors.New("varint: empty")
	}
	n = 1 << (b[0] >> 6)
	if len(b) < n {
		return 0, 0, errors.New("varint: truncated")
	}
	v = uint64(b[0] & 0x3f)
	for _, c := range b[1:n] {
		v = v<<8 | uint64(c)
	}
	return v, n, nil
}

// Frame types used here (RFC 9000, Section 19).
const (
	framePadding = 0x00
	framePing    = 0x01
	frameCrypto  = 0x06
	frameStream  = 0x08 // no offset, no length, no FIN: data to the end
)

var (
	clientCID = []byte{0xc1, 0xc1, 0xc1, 0xc1, 0xc1, 0xc1, 0xc1, 0xc1}
	serverCID = []byte{0x5e, 0x5e, 0x5e, 0x5e, 0x5e, 0x5e, 0x5e, 0x5e}
)

type datagram struct {
	level tls.QUICEncryptionLevel
	data  []byte
}

// quicEndpoint is one side of the connection: the crypto/tls QUICConn, the
// protectors built from its events, and its packet number state.
type quicEndpoint struct {
	t          *testing.T
	name       string
	conn       *tls.QUICConn
	params     []byte // our transport parameters
	peerParams []byte
	dcid       []byte // the peer's connection ID
	read       [4]*tls13.PacketProtector
	write      [4]*tls13.PacketProtector
	suite      uint16
	done       bool

	cryptoSent [3]uint64 // CRYPTO stream offsets per space
	nextPN     [3]uint64
	expectPN   [3]uint64 // largest received + 1
	inbox      []datagram
	peer       *quicEndpoint

	// 1-RTT key phase state (RFC 9001, Section 6).
	keyPhase  byte
	nextRead  *tls13.PacketProtector
	received  [][]byte // STREAM data received
	handshake int      // Handshake packets opened
}

// errSuite reports a suite other than ChaCha20 at the first secret event.
type errSuite struct{ suite uint16 }

func (e errSuite) Error() string { return "negotiated " + tls.CipherSuiteName(e.suite) }

// pump reads every pending event.
func (e *quicEndpoint) pump() error {
	for {
		ev := e.conn.NextEvent()
		switch ev.Kind {
		case tls.QUICNoEvent:
			return nil
		case tls.QUICErrorEvent:
			return fmt.Errorf("%s: %w", e.name, ev.Err)
		case tls.QUICSetReadSecret, tls.QUICSetWriteSecret:
			e.suite = ev.Suite
			p, err := tls13.NewPacketProtectorFromEvent(ev)
			var se *tls13.SuiteError
			if errors.As(err, &se) {
				return errSuite{ev.Suite}
			}
			if err != nil {
				return err
			}
			if ev.Kind == tls.QUICSetReadSecret {
				e.read[ev.Level] = p
			} else {
				e.write[ev.Level] = p
			}
		case tls.QUICWriteData:
			e.sendCrypto(ev.Level, bytes.Clone(ev.Data))
		case tls.QUICTransportParameters:
			e.peerParams = bytes.Clone(ev.Data)
		case tls.QUICTransportParametersRequired:
			e.conn.SetTransportParameters(e.params)
		case tls.QUICHandshakeDone:
			e.done = true
		}
	}
}

// sendCrypto sends handshake bytes in CRYPTO frames at their level.
func (e *quicEndpoint) sendCrypto(level tls.QUICEncryptionLevel, data []byte) {
	space := spaceOf(level)
	for len(data) > 0 {
		n := min(len(data), 200) // several packets per flight
		frame := []byte{frameCrypto}
		frame = appendVarint(frame, e.cryptoSent[space])
		frame = appendVarint(frame, uint64(n))
		frame = append(frame, data[:n]...)
		e.cryptoSent[space] += uint64(n)
		data = data[n:]
		if level == tls.QUICEncryptionLevelInitial {
			e.peer.inbox = append(e.peer.inbox, datagram{level, frame})
		} else {
			e.sendProtected(level, frame)
		}
	}
}

// sendProtected builds, protects and sends one packet: a Handshake packet
// (long header) or a 1-RTT packet (short header) with the current key phase.
// The packet number length cycles through 1 to 4 bytes.
func (e *quicEndpoint) sendProtected(level tls.QUICEncryptionLevel, payload []byte) {
	t := e.t
	space := spaceOf(level)
	pn := e.nextPN[space]
	e.nextPN[space]++
	pnLen := 1 + int(pn%4)
	// Pad so that the sample fits: pnLen + payload + 16 >= 4 + 16.
	for len(payload) < 4-pnLen {
		payload = append(payload, framePadding)
	}
	w := e.write[level]
	if w == nil {
		t.Fatalf("%s: no write keys at level %v", e.name, level)
	}
	var pkt []byte
	if level == tls.QUICEncryptionLevelHandshake {
		pkt = append(pkt, 0xe0|byte(pnLen-1)) // long header, fixed bit, type Handshake
		pkt = binary.BigEndian.AppendUint32(pkt, 1)
		pkt = append(pkt, byte(len(e.dcid)))
		pkt = append(pkt, e.dcid...)
		pkt = append(pkt, byte(len(e.peer.dcid)))
		pkt = append(pkt, e.peer.dcid...) // our own CID
		length := uint64(pnLen + len(payload) + tls13.Overhead)
		pkt = binary.BigEndian.AppendUint16(pkt, uint16(length)|0x4000) // always 2 bytes
	} else {
		pkt = append(pkt, 0x40|e.keyPhase<<2|byte(pnLen-1)) // short header
		pkt = append(pkt, e.dcid...)
	}
	pnOffset := len(pkt)
	for i := pnLen - 1; i >= 0; i-- {
		pkt = append(pkt, byte(pn>>(8*i)))
	}
	hdrLen := len(pkt)
	pkt = w.Seal(pkt, pn, pkt[:hdrLen], payload)
	if err := w.ProtectHeader(pkt, pnOffset); err != nil {
		t.Fatal(err)
	}
	e.peer.inbox = append(e.peer.inbox, datagram{level, pkt})
}

// receive removes protection from one packet and hands its frames on.
func (e *quicEndpoint) receive(d datagram) error {
	if d.level == tls.QUICEncryptionLevelInitial {
		return e.frames(d.level, d.data)
	}
	pkt := d.data
	var pnOffset int
	if d.level == tls.QUICEncryptionLevelHandshake {
		if pkt[0]&0x80 == 0 {
			return errors.New("expected a long header")
		}
		dcidLen := int(pkt[5])
		scidLen := int(pkt[6+dcidLen])
		if !bytes.Equal(pkt[6:6+dcidLen], e.peer.dcid) {
			return errors.New("wrong destination connection ID")
		}
		pnOffset = 7 + dcidLen + scidLen + 2
	} else {
		if pkt[0]&0x80 != 0 {
			return errors.New("expected a short header")
		}
		pnOffset = 1 + len(e.peer.dcid)
	}
	r := e.read[d.level]
	if r == nil {
		return fmt.Errorf("%s: no read keys at level %v", e.name, d.level)
	}
	// Header protection first, with the header protection key, which
	// every key phase shares.
	pnLen, truncated, err := r.UnprotectHeader(pkt, pnOffset)
	if err != nil {
		return err
	}
	space := spaceOf(d.level)
	pn := tls13.DecodePacketNumber(e.expectPN[space], truncated, pnLen)
	header, ciphertext := pkt[:pnOffset+pnLen], pkt[pnOffset+pnLen:]

	if d.level == tls.QUICEncryptionLevelApplication {
		if !e.done {
			return errors.New("1-RTT packet before the handshake completed")
		}
		if pkt[0]&0x18 != 0 {
			return errors.New("reserved bits set after header protection removal")
		}
		if phase := pkt[0] >> 2 & 1; phase != e.keyPhase {
			// A key update by the peer (RFC 9001, Section 6.2): open with
			// the next keys; on success, promote them and update our
			// write keys too.
			payload, err := e.nextRead.Open(nil, pn, header, ciphertext)
			if err != nil {
				return fmt.Errorf("packet %d with key phase %d: %w", pn, phase, err)
			}
			if _, err := r.Open(nil, pn, header, ciphertext); err == nil {
				return errors.New("old keys opened a packet of the new key phase")
			}
			e.t.Logf("%s: key update to phase %d at packet %d", e.name, phase, pn)
			e.installNextKeys(true)
			e.expectPN[space] = max(e.expectPN[space], pn+1)
			return e.frames(d.level, payload)
		}
	}
	payload, err := r.Open(nil, pn, header, ciphertext)
	if err != nil {
		return fmt.Errorf("%s: packet %d at level %v: %w", e.name, pn, d.level, err)
	}
	if d.level == tls.QUICEncryptionLevelHandshake {
		e.handshake++
		if pkt[0]&0x0c != 0 {
			return errors.New("reserved bits set after header protection removal")
		}
	}
	e.expectPN[space] = max(e.expectPN[space], pn+1)
	return e.frames(d.level, payload)
}

// installNextKeys moves to the next 1-RTT key phase: the read keys become
// the prepared next ones (and the next after that is prepared, RFC 9001,
// Section 6.3), and, when updateWrite, the write keys are updated too.
func (e *quicEndpoint) installNextKeys(updateWrite bool) {
	t := e.t
	lvl := tls.QUICEncryptionLevelApplication
	e.read[lvl].Wipe()
	e.read[lvl] = e.nextRead
	var err error
	if e.nextRead, err = e.read[lvl].Next(); err != nil {
		t.Fatal(err)
	}
	if updateWrite {
		next, err := e.write[lvl].Next()
		if err != nil {
			t.Fatal(err)
		}
		e.write[lvl].Wipe()
		e.write[lvl] = next
	}
	e.keyPhase ^= 1
}

// frames parses the frames of a packet payload.
func (e *quicEndpoint) frames(level tls.QUICEncryptionLevel, p []byte) error {
	for len(p) > 0 {
		switch p[0] {
		case framePadding, framePing:
			p = p[1:]
		case frameCrypto:
			off, n1, err := readVarint(p[1:])
			if err != nil {
				return err
			}
			length, n2, err := readVarint(p[1+n1:])
			if err != nil {
				return err
			}
			p = p[1+n1+n2:]
			if uint64(len(p)) < length {
				return errors.New("CRYPTO frame overruns the packet")
			}
			_ = off // in order, no loss: the offsets follow each other
			if err := e.conn.HandleData(level, p[:length]); err != nil {
				return err
			}
			p = p[length:]
		case frameStream:
			if level != tls.QUICEncryptionLevelApplication {
				return errors.New("STREAM frame outside 1-RTT")
			}
			_, n, err := readVarint(p[1:])
			if err != nil {
				return err
			}
			e.received = append(e.received, bytes.Clone(p[1+n:]))
			p = nil
		default:
			return fmt.Errorf("unknown frame type %#x", p[0])
		}
	}
	return e.pump()
}

// deliver processes the inboxes of both endpoints until they are empty.
func deliver(eps ...*quicEndpoint) error {
	for busy := true; busy; {
		busy = false
		for _, e := range eps {
			for len(e.inbox) > 0 {
				d := e.inbox[0]
				e.inbox = e.inbox[1:]
				busy = true
				if err := e.receive(d); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// TestLiveQUIC handshakes a crypto/tls QUIC client and server in memory
// with TLS_CHACHA20_POLY1305_SHA256, protecting Handshake and 1-RTT packets
// with keys each side builds from its own secret events, exchanges 1-RTT
// packets in both directions, and performs one key update initiated by the
// client (RFC 9001, Section 6). Where the CPU has AES hardware, crypto/tls
// would choose AES-128-GCM, and the test re-runs itself with
// GODEBUG=cpu.aes=off (see helpers_test.go).
func TestLiveQUIC(t *testing.T) {
	cert, pool := selfSigned(t)
	client := &quicEndpoint{t: t, name: "client", params: []byte("client transport parameters"), dcid: serverCID}
	server := &quicEndpoint{t: t, name: "server", params: []byte("server transport parameters"), dcid: clientCID}
	client.peer, server.peer = server, client
	client.conn = tls.QUICClient(&tls.QUICConfig{TLSConfig: &tls.Config{
		RootCAs: pool, ServerName: testServerName, MinVersion: tls.VersionTLS13, NextProtos: []string{"chachakit-test"},
	}})
	server.conn = tls.QUICServer(&tls.QUICConfig{TLSConfig: &tls.Config{
		Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS13, NextProtos: []string{"chachakit-test"},
	}})
	defer client.conn.Close()
	defer server.conn.Close()
	client.conn.SetTransportParameters(client.params)

	ctx := context.Background()
	err := client.conn.Start(ctx)
	if err == nil {
		err = server.conn.Start(ctx)
	}
	if err == nil {
		err = client.pump()
	}
	if err == nil {
		err = deliver(client, server)
	}
	if se, ok := err.(errSuite); ok {
		if inChild() {
			t.Fatalf("crypto/tls %s even with GODEBUG=cpu.aes=off", se)
		}
		t.Logf("crypto/tls %s in this process", se)
		runWithoutAES(t)
		return
	}
	if err != nil {
		t.Fatal(err)
	}

	// The handshake.
	lvl := tls.QUICEncryptionLevelApplication
	for _, e := range []*quicEndpoint{client, server} {
		if !e.done {
			t.Fatalf("%s: handshake not done", e.name)
		}
		if s := e.conn.ConnectionState().CipherSuite; s != tls.TLS_CHACHA20_POLY1305_SHA256 || e.suite != s {
			t.Fatalf("%s: suite %s, events said %s", e.name, tls.CipherSuiteName(s), tls.CipherSuiteName(e.suite))
		}
		if !bytes.Equal(e.peerParams, e.peer.params) {
			t.Errorf("%s: transport parameters %q, want %q", e.name, e.peerParams, e.peer.params)
		}
		if e.handshake == 0 {
			t.Errorf("%s: opened no Handshake packets", e.name)
		}
		if e.read[lvl] == nil || e.write[lvl] == nil {
			t.Fatalf("%s: no 1-RTT keys", e.name)
		}
		if e.nextRead, err = e.read[lvl].Next(); err != nil {
			t.Fatal(err)
		}
		// Handshake keys are discarded once the handshake is confirmed
		// (RFC 9001, Section 4.9.2).
		e.read[tls.QUICEncryptionLevelHandshake].Wipe()
		e.write[tls.QUICEncryptionLevelHandshake].Wipe()
	}
	t.Logf("handshake: client opened %d Handshake packets, server %d", client.handshake, server.handshake)

	// 1-RTT data both ways, then a key update by the client, then more
	// data both ways under the new keys.
	var want [2][][]byte
	send := func(from *quicEndpoint, i int, msg string) {
		from.sendProtected(lvl, append([]byte{frameStream, 0}, msg...))
		want[i] = append(want[i], []byte(msg))
	}
	sizes := []int{1, 2, 3, 50, 1000, 1200}
	for _, n := range sizes {
		send(client, 0, string(bytes.Repeat([]byte{'c'}, n)))
		send(server, 1, string(bytes.Repeat([]byte{'s'}, n)))
	}
	if err := deliver(client, server); err != nil {
		t.Fatal(err)
	}

	client.installNextKeys(true) // initiate: new write keys, key phase 1
	send(client, 0, "first packet of key phase 1")
	if err := deliver(client, server); err != nil {
		t.Fatal(err)
	}
	if server.keyPhase != 1 {
		t.Fatal("the server did not follow the key update")
	}
	send(server, 1, "reply in key phase 1")
	for _, n := range sizes {
		send(client, 0, string(bytes.Repeat([]byte{'C'}, n)))
		send(server, 1, string(bytes.Repeat([]byte{'S'}, n)))
	}
	if err := deliver(client, server); err != nil {
		t.Fatal(err)
	}
	if client.keyPhase != 1 {
		t.Fatal("client left key phase 1")
	}
	for i, e := range []*quicEndpoint{server, client} {
		if len(e.received) != len(want[i]) {
			t.Fatalf("%s received %d STREAM frames, want %d", e.name, len(e.received), len(want[i]))
		}
		for j := range want[i] {
			if !bytes.Equal(e.received[j], want[i][j]) {
				t.Fatalf("%s: STREAM frame %d is %q, want %q", e.name, j, e.received[j], want[i][j])
			}
		}
	}
	t.Logf("1-RTT: %d packets client to server, %d server to client, one key update", client.nextPN[spaceApplication], server.nextPN[spaceApplication])
}
