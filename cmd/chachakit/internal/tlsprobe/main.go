// Command tlsprobe runs a live TLS 1.3 session over loopback between a
// crypto/tls server and a crypto/tls client in one process, to show which
// ChaCha20-Poly1305 seals and opens crypto/tls's records: the vendored
// golang.org/x/crypto one of a plain build, or chachakit's in a build with
// the overlay that "chachakit overlay" writes. Built with the
// chachakit_tally tag it prints how many Seal and Open calls package aead
// counted (package internal/tally).
//
// The session: a handshake with a throwaway self-signed certificate, -size
// bytes each way, a KeyUpdate, -size more bytes each way, then close. All
// data is checked. crypto/tls negotiates TLS_CHACHA20_POLY1305_SHA256 only
// when it believes the CPU has no AES hardware, so run the probe with
// GODEBUG=cpu.aes=off; it fails on any other suite.
//
// crypto/tls has no API to send a KeyUpdate; it only answers one. The probe
// therefore puts a proxy (keyUpdater) between the client and its socket.
// The proxy learns client_application_traffic_secret_0 from the client's
// Config.KeyLogWriter, tracks the client's record sequence number, and
// writes a KeyUpdate(update_requested) record of its own, sealed with the
// client's key, into the client-to-server stream. The crypto/tls server
// takes it as a real KeyUpdate: it moves its read key to the next secret
// and answers with its own KeyUpdate, which the crypto/tls client reads and
// takes in turn. Only the client's write side cannot move (its Conn does
// not know of the injected record), so after the KeyUpdate the proxy opens
// each client record with the old key and seals it again with the new one.
// The proxy seals and opens with package aead/tls13 and counts its own
// calls, so that the crypto/tls share of the tally can be told apart.
//
// With -keyupdate=false there is no proxy and no KeyUpdate, and every
// Seal and Open in the process is crypto/tls's own: that is the mode for
// measuring CPU time with and without the overlay.
//
// With -reps N (N > 0), the session goes on after the two halves with N
// more transfers of -size bytes each way, and the probe prints the CPU time
// (user+sys of the whole process, from getrusage) and the wall time of
// those N transfers alone, per transfer: process start, key generation,
// the handshake and the first two halves are outside them.
// bench/scripts/consumers.sh uses it with -keyupdate=false.
//
// Output lines (the tests parse them):
//
//	suite TLS_CHACHA20_POLY1305_SHA256
//	bytes each-way=N
//	keyupdate seq=N resealed=N          (only with -keyupdate)
//	counts tally=BOOL seals=N opens=N proxy-seals=N proxy-opens=N tls-seals=N tls-opens=N
//	rusage reps=N each-way=N cpu-ms=X wall-ms=Y (only with -reps; per transfer)
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"os"
	"sync"
	"time"

	"github.com/chachakit/chachakit/internal/tally"
)

const serverName = "tlsprobe.test"

func main() {
	size := flag.Int64("size", 1<<20, "bytes to send each way before the KeyUpdate, and again after it")
	keyUpdate := flag.Bool("keyupdate", true, "inject a KeyUpdate between the two halves of the transfer")
	reps := flag.Int("reps", 0, "after the two halves, this many more transfers of -size bytes each way, timed (CPU and wall)")
	flag.Parse()
	if err := run(*size, *keyUpdate, *reps); err != nil {
		fmt.Fprintln(os.Stderr, "tlsprobe:", err)
		os.Exit(1)
	}
}

func run(size int64, keyUpdate bool, reps int) error {
	if size <= 0 {
		return errors.New("-size must be positive")
	}
	if reps < 0 {
		return errors.New("-reps must not be negative")
	}
	cert, pool, err := selfSigned()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()

	var proxy *keyUpdater
	clientConfig := &tls.Config{
		RootCAs:    pool,
		ServerName: serverName,
		MinVersion: tls.VersionTLS13,
	}
	if keyUpdate {
		proxy = new(keyUpdater)
		clientConfig.KeyLogWriter = keyLogWriter{proxy}
	}
	serverConfig := &tls.Config{
		Certificates: []tls.Certificate{cert},
		MinVersion:   tls.VersionTLS13,
	}

	accepted := make(chan net.Conn, 1)
	acceptErr := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			acceptErr <- err
			return
		}
		accepted <- c
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		return err
	}
	var rawServer net.Conn
	select {
	case rawServer = <-accepted:
	case err := <-acceptErr:
		return err
	}
	deadline := time.Now().Add(10 * time.Minute)
	raw.SetDeadline(deadline)
	rawServer.SetDeadline(deadline)

	var clientSide net.Conn = raw
	if proxy != nil {
		proxy.Conn = raw
		clientSide = proxy
	}
	client := tls.Client(clientSide, clientConfig)
	server := tls.Server(rawServer, serverConfig)
	defer client.Close()
	defer server.Close()

	if err := both(client.Handshake, server.Handshake); err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	cs, ss := client.ConnectionState(), server.ConnectionState()
	if cs.Version != tls.VersionTLS13 || ss.CipherSuite != cs.CipherSuite {
		return fmt.Errorf("negotiated version %x, suites %s and %s", cs.Version, tls.CipherSuiteName(cs.CipherSuite), tls.CipherSuiteName(ss.CipherSuite))
	}
	fmt.Println("suite", tls.CipherSuiteName(cs.CipherSuite))
	if cs.CipherSuite != tls.TLS_CHACHA20_POLY1305_SHA256 {
		return errors.New("crypto/tls did not pick ChaCha20-Poly1305; run with GODEBUG=cpu.aes=off")
	}

	up := newPattern(1)   // client to server
	down := newPattern(2) // server to client
	if err := transfer(client, server, up, down, 0, size); err != nil {
		return fmt.Errorf("before the KeyUpdate: %w", err)
	}
	if proxy != nil {
		if err := proxy.inject(); err != nil {
			return fmt.Errorf("KeyUpdate: %w", err)
		}
	}
	if err := transfer(client, server, up, down, size, size); err != nil {
		return fmt.Errorf("after the KeyUpdate: %w", err)
	}
	var timed string
	if reps > 0 {
		cpu0, err := cpuTime()
		if err != nil {
			return err
		}
		wall0 := time.Now()
		for i := range int64(reps) {
			if err := transfer(client, server, up, down, (2+i)*size, size); err != nil {
				return fmt.Errorf("timed transfer %d: %w", i, err)
			}
		}
		wall := time.Since(wall0)
		cpu1, err := cpuTime()
		if err != nil {
			return err
		}
		perRep := func(d time.Duration) float64 { return float64(d) / 1e6 / float64(reps) }
		timed = fmt.Sprintf("rusage reps=%d each-way=%d cpu-ms=%.4f wall-ms=%.4f\n", reps, size, perRep(cpu1-cpu0), perRep(wall))
	}

	// Close the client (its close_notify goes through the proxy) and see
	// the server read it as a clean end of stream.
	if err := client.Close(); err != nil {
		return fmt.Errorf("client close: %w", err)
	}
	if n, err := server.Read(make([]byte, 1)); err != io.EOF {
		return fmt.Errorf("server read after client close: %d bytes, %v; want io.EOF", n, err)
	}

	fmt.Printf("bytes each-way=%d\n", 2*size)
	var pSeals, pOpens uint64
	if proxy != nil {
		proxy.mu.Lock()
		fmt.Printf("keyupdate seq=%d resealed=%d\n", proxy.injectedSeq, proxy.resealed)
		if proxy.resealed == 0 {
			proxy.mu.Unlock()
			return errors.New("no client record went out under the updated key")
		}
		pSeals, pOpens = proxy.seals, proxy.opens
		proxy.mu.Unlock()
	}
	seals, opens := tally.Counts()
	var tSeals, tOpens uint64
	if tally.Enabled {
		tSeals, tOpens = seals-pSeals, opens-pOpens
	}
	fmt.Printf("counts tally=%v seals=%d opens=%d proxy-seals=%d proxy-opens=%d tls-seals=%d tls-opens=%d\n",
		tally.Enabled, seals, opens, pSeals, pOpens, tSeals, tOpens)
	fmt.Print(timed)
	return nil
}

// both runs f and g concurrently and returns the first error of the two.
func both(f, g func() error) error {
	errs := make(chan error, 2)
	go func() { errs <- f() }()
	go func() { errs <- g() }()
	err1, err2 := <-errs, <-errs
	if err1 != nil {
		return err1
	}
	return err2
}

// transfer sends n bytes of up from client to server and n bytes of down
// from server to client, both at once, starting at offset off of each
// stream, and checks what arrives.
func transfer(client, server *tls.Conn, up, down *pattern, off, n int64) error {
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i, f := range []func() error{
		func() error { return up.write(client, off, n) },
		func() error { return up.check(server, off, n) },
		func() error { return down.write(server, off, n) },
		func() error { return down.check(client, off, n) },
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// patternLen is the period of a pattern: not a power of two, so that the
// pattern does not line up with the 16 KiB records.
const patternLen = 65521

// pattern is an endless byte stream, a random block repeated, that a
// writer and a reader can both produce at any offset.
type pattern struct {
	twice []byte // the block twice, so that any patternLen bytes are one slice
}

func newPattern(seed uint64) *pattern {
	block := make([]byte, patternLen)
	r := mrand.NewChaCha8([32]byte{byte(seed)})
	r.Read(block)
	return &pattern{twice: append(block, block...)}
}

// at returns up to n bytes of the stream from offset off.
func (p *pattern) at(off, n int64) []byte {
	i := off % patternLen
	return p.twice[i : i+min(n, patternLen)]
}

func (p *pattern) write(w io.Writer, off, n int64) error {
	for end := off + n; off < end; {
		b := p.at(off, end-off)
		if _, err := w.Write(b); err != nil {
			return err
		}
		off += int64(len(b))
	}
	return nil
}

func (p *pattern) check(r io.Reader, off, n int64) error {
	buf := make([]byte, patternLen)
	for end := off + n; off < end; {
		k, err := r.Read(buf[:min(int64(len(buf)), end-off)])
		if k > 0 && !bytes.Equal(buf[:k], p.at(off, int64(k))) {
			return fmt.Errorf("wrong data in the %d bytes at offset %d", k, off)
		}
		off += int64(k)
		if err != nil {
			return fmt.Errorf("after %d bytes: %w", off, err)
		}
	}
	return nil
}

// selfSigned returns a fresh Ed25519 certificate for serverName, valid for
// an hour, and a pool that trusts it.
func selfSigned() (tls.Certificate, *x509.CertPool, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: serverName},
		DNSNames:              []string{serverName},
		NotBefore:             time.Now().Add(-time.Minute),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, pub, priv)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: priv, Leaf: leaf}, pool, nil
}
