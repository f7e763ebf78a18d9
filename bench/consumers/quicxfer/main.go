// Command quicxfer measures quic-go moving data over loopback UDP between a
// QUIC server and a QUIC client in one process. The packets are protected
// with ChaCha20-Poly1305 (golang.org/x/crypto/chacha20poly1305) and their
// headers with ChaCha20 (golang.org/x/crypto/chacha20) when the TLS
// handshake negotiates TLS_CHACHA20_POLY1305_SHA256, which crypto/tls does
// on both ends when run with GODEBUG=cpu.aes=off; the program checks the
// suite on both connections and fails on any other.
//
// After the handshake it runs -reps transfers, each a new stream from the
// client to the server carrying -size bytes, which the server reads to the
// end and checks. One transfer more, first, is not measured. It prints a
// line of package phase: CPU and wall time per transfer, measured around
// the measured transfers alone.
package main

import (
	"bytes"
	"context"
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
	"os"
	"time"

	"github.com/chachakit/chachakit/bench/consumers/internal/phase"
	"github.com/quic-go/quic-go"
)

const (
	serverName = "quicxfer.test"
	alpn       = "chachakit-bench"
)

func main() {
	size := flag.Int("size", 16<<20, "bytes per transfer")
	reps := flag.Int("reps", 4, "measured transfers")
	flag.Parse()
	if err := run(*size, *reps); err != nil {
		fmt.Fprintln(os.Stderr, "quicxfer:", err)
		os.Exit(1)
	}
}

func run(size, reps int) error {
	if size <= 0 || reps <= 0 {
		return errors.New("-size and -reps must be positive")
	}
	cert, pool, err := selfSigned()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	ln, err := quic.ListenAddr("127.0.0.1:0", &tls.Config{
		Certificates: []tls.Certificate{cert},
		NextProtos:   []string{alpn},
	}, nil)
	if err != nil {
		return err
	}
	defer ln.Close()

	client, err := quic.DialAddr(ctx, ln.Addr().String(), &tls.Config{
		RootCAs:    pool,
		ServerName: serverName,
		NextProtos: []string{alpn},
	}, nil)
	if err != nil {
		return fmt.Errorf("dial: %w", err)
	}
	defer client.CloseWithError(0, "")
	server, err := ln.Accept(ctx)
	if err != nil {
		return fmt.Errorf("accept: %w", err)
	}
	defer server.CloseWithError(0, "")
	for side, c := range map[string]*quic.Conn{"client": client, "server": server} {
		if got := c.ConnectionState().TLS.CipherSuite; got != tls.TLS_CHACHA20_POLY1305_SHA256 {
			return fmt.Errorf("the %s negotiated %s, not TLS_CHACHA20_POLY1305_SHA256; run with GODEBUG=cpu.aes=off",
				side, tls.CipherSuiteName(got))
		}
	}
	fmt.Println("suite", tls.CipherSuiteName(client.ConnectionState().TLS.CipherSuite))

	data := make([]byte, size)
	rand.Read(data)
	buf := make([]byte, size)
	if err := transfer(ctx, client, server, data, buf); err != nil {
		return err
	}
	start := phase.Now()
	for range reps {
		if err := transfer(ctx, client, server, data, buf); err != nil {
			return err
		}
	}
	phase.Print(fmt.Sprintf("stream-%d", size), reps, start)
	return nil
}

// transfer sends data on a new stream from client to server and reads it
// on the server into buf, which must be as long as data, and checks it.
func transfer(ctx context.Context, client, server *quic.Conn, data, buf []byte) error {
	writeErr := make(chan error, 1)
	go func() {
		s, err := client.OpenStreamSync(ctx)
		if err != nil {
			writeErr <- err
			return
		}
		if _, err := s.Write(data); err != nil {
			writeErr <- err
			return
		}
		writeErr <- s.Close()
	}()
	s, err := server.AcceptStream(ctx)
	if err != nil {
		return fmt.Errorf("accept stream: %w", err)
	}
	if _, err := io.ReadFull(s, buf); err != nil {
		return fmt.Errorf("read: %w", err)
	}
	if n, err := s.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		return fmt.Errorf("after the data: %d bytes, %v; want io.EOF", n, err)
	}
	if !bytes.Equal(buf, data) {
		return errors.New("wrong data")
	}
	if err := <-writeErr; err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// selfSigned returns a fresh Ed25519 certificate for serverName and a pool
// that trusts it.
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
