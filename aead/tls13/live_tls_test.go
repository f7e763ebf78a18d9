package tls13_test

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"encoding/binary"
	"encoding/hex"
	"io"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/chachakit/chachakit/aead/tls13"
)

// recorder is a net.Conn that keeps a copy of every byte written to it.
type recorder struct {
	net.Conn
	mu      sync.Mutex
	written bytes.Buffer
}

func (r *recorder) Write(p []byte) (int, error) {
	n, err := r.Conn.Write(p)
	r.mu.Lock()
	r.written.Write(p[:n])
	r.mu.Unlock()
	return n, err
}

func (r *recorder) bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.written.Bytes())
}

// lockedBuffer is a KeyLogWriter that the handshake goroutines may share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// secrets parses NSS key log lines ("LABEL <client_random> <secret>").
func (l *lockedBuffer) secrets(t *testing.T) map[string][]byte {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	m := make(map[string][]byte)
	s := bufio.NewScanner(bytes.NewReader(l.b.Bytes()))
	for s.Scan() {
		f := strings.Fields(s.Text())
		if len(f) != 3 {
			t.Fatalf("key log line %q", s.Text())
		}
		secret, err := hex.DecodeString(f[2])
		if err != nil {
			t.Fatal(err)
		}
		m[f[0]] = secret
	}
	return m
}

// splitRecords cuts a TLS byte stream into whole records.
func splitRecords(t *testing.T, stream []byte) [][]byte {
	t.Helper()
	var records [][]byte
	for len(stream) > 0 {
		if len(stream) < 5 {
			t.Fatalf("%d stray bytes at the end of the stream", len(stream))
		}
		n := 5 + int(binary.BigEndian.Uint16(stream[3:]))
		if n > len(stream) {
			t.Fatalf("truncated record: %d of %d bytes", len(stream), n)
		}
		records = append(records, stream[:n])
		stream = stream[n:]
	}
	return records
}

// TestLiveTLS runs a crypto/tls TLS 1.3 client and server over net.Pipe,
// negotiating TLS_CHACHA20_POLY1305_SHA256, records every byte each side
// writes, and takes the secrets from KeyLogWriter. Every encrypted record in
// both directions — handshake records under the handshake traffic secrets,
// then everything else under the application traffic secrets, session
// tickets and close_notify included — must open with RecordProtector, and
// sealing each plaintext again with the same content type and padding
// length must give the captured bytes exactly. The application data
// recovered must be what the two sides wrote.
//
// ClientPrefersChaCha gets ChaCha20 in process from any CPU;
// DefaultConfig uses default TLS 1.3 configurations and, where the CPU has
// AES hardware, re-runs itself with GODEBUG=cpu.aes=off (see helpers_test.go).
func TestLiveTLS(t *testing.T) {
	t.Run("ClientPrefersChaCha", func(t *testing.T) { testLiveTLS(t, true) })
	t.Run("DefaultConfig", func(t *testing.T) { testLiveTLS(t, false) })
}

func testLiveTLS(t *testing.T, clientPrefersChaCha bool) {
	cert, pool := selfSigned(t)
	keyLog := new(lockedBuffer)
	serverConf := &tls.Config{
		Certificates: []tls.Certificate{cert},
		MinVersion:   tls.VersionTLS13,
		// Full 2^14-byte records at once from the server; the client
		// keeps crypto/tls's default dynamic record sizing (small records
		// first), so both shapes are seen.
		DynamicRecordSizingDisabled: true,
	}
	clientConf := &tls.Config{
		RootCAs:      pool,
		ServerName:   testServerName,
		KeyLogWriter: keyLog,
		MinVersion:   tls.VersionTLS13,
		// A session cache makes the client offer PSK modes, so the server
		// sends NewSessionTicket messages under its application keys.
		ClientSessionCache: tls.NewLRUClientSessionCache(1),
	}
	if clientPrefersChaCha {
		clientConf.MinVersion = tls.VersionTLS12
		clientConf.CipherSuites = []uint16{tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256}
	}

	cPipe, sPipe := net.Pipe()
	cRec, sRec := &recorder{Conn: cPipe}, &recorder{Conn: sPipe}
	client, server := tls.Client(cRec, clientConf), tls.Server(sRec, serverConf)

	// The server echoes everything until the client's close_notify.
	serverDone := make(chan error, 1)
	go func() {
		_, err := io.CopyBuffer(server, server, make([]byte, 100000))
		server.Close()
		serverDone <- err
	}()

	if err := client.Handshake(); err != nil {
		t.Fatal(err)
	}
	if suite := client.ConnectionState().CipherSuite; suite != tls.TLS_CHACHA20_POLY1305_SHA256 {
		client.Close()
		<-serverDone
		if inChild() || clientPrefersChaCha {
			t.Fatalf("crypto/tls negotiated %s, not TLS_CHACHA20_POLY1305_SHA256", tls.CipherSuiteName(suite))
		}
		t.Logf("crypto/tls negotiated %s in this process", tls.CipherSuiteName(suite))
		runWithoutAES(t)
		return
	}
	if v := client.ConnectionState().Version; v != tls.VersionTLS13 {
		t.Fatalf("version %#x", v)
	}

	var sent bytes.Buffer
	for i, n := range []int{1, 5, 100, 1000, 1500, 4000, 16383, 16384, 16385, 20000, 70000, 300, 150000, 0, 33} {
		msg := randomBytes(t, n)
		for j := range msg {
			msg[j] |= 1 // no zero bytes: a mix-up with padding would show
		}
		// net.Pipe has no buffer: write while reading the echo.
		wrote := make(chan error, 1)
		go func() {
			_, err := client.Write(msg)
			wrote <- err
		}()
		got := make([]byte, n)
		if _, err := io.ReadFull(client, got); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if err := <-wrote; err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if !bytes.Equal(got, msg) {
			t.Fatalf("message %d: echo differs", i)
		}
		sent.Write(msg)
	}
	// Half-close, so that the server's close_notify still reaches the
	// client and is recorded.
	if err := client.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	if rest, err := io.ReadAll(client); err != nil || len(rest) != 0 {
		t.Fatalf("after close_notify: %d bytes, %v", len(rest), err)
	}
	if err := <-serverDone; err != nil {
		t.Fatalf("server: %v", err)
	}
	client.Close()

	secrets := keyLog.secrets(t)
	for _, dir := range []struct {
		name, hsLabel, appLabel string
		stream                  []byte
		tickets                 bool
	}{
		{"client to server", "CLIENT_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0", cRec.bytes(), false},
		{"server to client", "SERVER_HANDSHAKE_TRAFFIC_SECRET", "SERVER_TRAFFIC_SECRET_0", sRec.bytes(), true},
	} {
		t.Run(strings.ReplaceAll(dir.name, " ", "_"), func(t *testing.T) {
			hs, app := secrets[dir.hsLabel], secrets[dir.appLabel]
			if hs == nil || app == nil {
				t.Fatalf("key log lacks %s or %s", dir.hsLabel, dir.appLabel)
			}
			appData := checkRecords(t, splitRecords(t, dir.stream), hs, app, dir.tickets)
			if !bytes.Equal(appData, sent.Bytes()) {
				t.Errorf("application data recovered: %d bytes, want the %d bytes sent", len(appData), sent.Len())
			}
		})
	}
}

// checkRecords opens every encrypted record of one direction, handshake
// traffic secret first and application traffic secret after the Finished
// message, reseals each, and returns the application data.
func checkRecords(t *testing.T, records [][]byte, hsSecret, appSecret []byte, wantTickets bool) []byte {
	t.Helper()
	newPair := func(secret []byte) (opener, sealer *tls13.RecordProtector) {
		var err error
		if opener, err = tls13.NewRecordProtector(secret); err != nil {
			t.Fatal(err)
		}
		if sealer, err = tls13.NewRecordProtector(secret); err != nil {
			t.Fatal(err)
		}
		return opener, sealer
	}
	opener, sealer := newPair(hsSecret)
	inHandshake := true
	var hsMessages []byte // handshake stream, cut into messages as it arrives
	var appData []byte
	counts := map[string]int{}
	full, partial := 0, 0
	out := make([]byte, 0, tls13.MaxCiphertext)
	for i, rec := range records {
		if rec[0] != tls13.RecordTypeApplicationData {
			// ClientHello, ServerHello and the compatibility
			// ChangeCipherSpec go in the clear, before any key.
			if !inHandshake || opener.Sequence() != 0 {
				t.Fatalf("record %d: cleartext type %d after encryption began", i, rec[0])
			}
			counts["cleartext"]++
			continue
		}
		typ, pt, err := opener.OpenRecord(out[:0], rec)
		if err != nil {
			t.Fatalf("record %d (%d bytes, %s keys, sequence %d): %v", i, len(rec), map[bool]string{true: "handshake", false: "application"}[inHandshake], opener.Sequence(), err)
		}
		padding := len(rec) - tls13.RecordHeaderLen - tls13.Overhead - 1 - len(pt)
		resealed, err := sealer.SealRecord(nil, typ, pt, padding)
		if err != nil {
			t.Fatalf("record %d: SealRecord: %v", i, err)
		}
		if !bytes.Equal(resealed, rec) {
			t.Fatalf("record %d: resealed record differs from the captured one", i)
		}
		switch {
		case inHandshake:
			if typ != tls13.RecordTypeHandshake {
				t.Fatalf("record %d: content type %d under handshake keys", i, typ)
			}
			counts["handshake keys"]++
			hsMessages = append(hsMessages, pt...)
			for len(hsMessages) >= 4 {
				n := 4 + (int(hsMessages[1])<<16 | int(hsMessages[2])<<8 | int(hsMessages[3]))
				if len(hsMessages) < n {
					break
				}
				msgType := hsMessages[0]
				hsMessages = hsMessages[n:]
				if msgType == 20 { // Finished: the next record uses the application keys
					if len(hsMessages) != 0 {
						t.Fatalf("record %d: data after Finished under handshake keys", i)
					}
					inHandshake = false
					opener.Wipe()
					sealer.Wipe()
					opener, sealer = newPair(appSecret)
				}
			}
		case typ == tls13.RecordTypeApplicationData:
			counts["application data"]++
			appData = append(appData, pt...)
			if len(pt) == tls13.MaxPlaintext {
				full++
			} else {
				partial++
			}
		case typ == tls13.RecordTypeHandshake:
			counts["post-handshake (session ticket)"]++
		case typ == tls13.RecordTypeAlert:
			if !bytes.Equal(pt, []byte{1, 0}) {
				t.Fatalf("record %d: alert %x, want close_notify", i, pt)
			}
			counts["close_notify"]++
		default:
			t.Fatalf("record %d: content type %d", i, typ)
		}
	}
	if inHandshake {
		t.Fatal("no Finished message under the handshake keys")
	}
	if counts["handshake keys"] == 0 || counts["application data"] == 0 || counts["close_notify"] != 1 ||
		(counts["post-handshake (session ticket)"] > 0) != wantTickets {
		t.Fatalf("records seen: %v", counts)
	}
	if full == 0 || partial == 0 {
		t.Errorf("application data records: %d of 2^14 bytes and %d shorter; want both", full, partial)
	}
	t.Logf("%d records: %v; application data in %d full and %d shorter records", len(records), counts, full, partial)
	return appData
}
