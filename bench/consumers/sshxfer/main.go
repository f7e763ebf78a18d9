// Command sshxfer measures golang.org/x/crypto/ssh moving data over a
// loopback TCP connection between an ssh server and an ssh client in one
// process, both limited to the chacha20-poly1305@openssh.com cipher (which
// takes its ChaCha20 from golang.org/x/crypto/chacha20, and its Poly1305
// from x/crypto's internal/poly1305, which a swap leaves alone).
//
// After the handshake the client opens one "session" channel, which the
// server accepts and reads to the end, and then runs two cases, each
// printed as a line of package phase (CPU and wall time per operation,
// measured around the case alone):
//
//	bulk    -reps transfers of -size bytes, client to server, in 32 KiB writes
//	        (x/crypto/ssh splits them into packets of its maximum size)
//	small   -reps transfers of -chunks writes of 32 bytes each, one packet each
//
// An operation is one transfer, which ends when the server has read all of
// its bytes. All data is checked.
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/chachakit/chachakit/bench/consumers/internal/phase"
	"golang.org/x/crypto/ssh"
)

const cipher = "chacha20-poly1305@openssh.com"

func main() {
	size := flag.Int("size", 1<<20, "bytes per bulk transfer")
	chunks := flag.Int("chunks", 1<<15, "32-byte writes per small transfer")
	reps := flag.Int("reps", 32, "transfers per case")
	flag.Parse()
	if err := run(*size, *chunks, *reps); err != nil {
		fmt.Fprintln(os.Stderr, "sshxfer:", err)
		os.Exit(1)
	}
}

func run(size, chunks, reps int) error {
	if size <= 0 || chunks <= 0 || reps <= 0 {
		return errors.New("-size, -chunks and -reps must be positive")
	}
	_, hostKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return err
	}
	signer, err := ssh.NewSignerFromKey(hostKey)
	if err != nil {
		return err
	}
	serverConfig := &ssh.ServerConfig{NoClientAuth: true}
	serverConfig.Ciphers = []string{cipher}
	serverConfig.AddHostKey(signer)
	clientConfig := &ssh.ClientConfig{
		User:            "bench",
		HostKeyCallback: ssh.FixedHostKey(signer.PublicKey()),
	}
	clientConfig.Ciphers = []string{cipher}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()

	// The server: one connection, one session channel, whose data it reads
	// and hands to the main goroutine in pieces through got.
	got := make(chan []byte, 64)
	serverErr := make(chan error, 1)
	go func() { serverErr <- serve(ln, serverConfig, got) }()

	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		return err
	}
	conn, chans, reqs, err := ssh.NewClientConn(raw, ln.Addr().String(), clientConfig)
	if err != nil {
		return fmt.Errorf("client handshake: %w", err)
	}
	client := ssh.NewClient(conn, chans, reqs)
	defer client.Close()
	ch, creqs, err := client.OpenChannel("session", nil)
	if err != nil {
		return err
	}
	go ssh.DiscardRequests(creqs)

	data := make([]byte, size)
	rand.Read(data)
	small := make([]byte, 32*chunks)
	rand.Read(small)

	// The first transfer of each case is not measured: it warms the
	// channel's window and the buffers.
	cases := []struct {
		name  string
		data  []byte
		chunk int
	}{
		{fmt.Sprintf("bulk-%d", size), data, 32 << 10},
		{fmt.Sprintf("small-32x%d", chunks), small, 32},
	}
	for _, c := range cases {
		if err := transfer(ch, got, serverErr, c.data, c.chunk); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		start := phase.Now()
		for range reps {
			if err := transfer(ch, got, serverErr, c.data, c.chunk); err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
		}
		phase.Print(c.name, reps, start)
	}
	if err := ch.Close(); err != nil {
		return err
	}
	return <-serverErr
}

// transfer writes data to ch in writes of chunk bytes and waits until the
// server has read all of it, checking it against data.
func transfer(ch ssh.Channel, got <-chan []byte, serverErr <-chan error, data []byte, chunk int) error {
	writeErr := make(chan error, 1)
	go func() {
		for off := 0; off < len(data); off += chunk {
			if _, err := ch.Write(data[off:min(off+chunk, len(data))]); err != nil {
				writeErr <- err
				return
			}
		}
		writeErr <- nil
	}()
	for off := 0; off < len(data); {
		select {
		case b := <-got:
			if len(b) > len(data)-off || !bytes.Equal(b, data[off:off+len(b)]) {
				return fmt.Errorf("wrong data at offset %d", off)
			}
			off += len(b)
		case err := <-serverErr:
			return fmt.Errorf("server: %v", err)
		}
	}
	return <-writeErr
}

// serve accepts one connection on ln, accepts its one session channel and
// sends what it reads from the channel to got, in fresh slices, until the
// client closes the channel.
func serve(ln net.Listener, config *ssh.ServerConfig, got chan<- []byte) error {
	raw, err := ln.Accept()
	if err != nil {
		return err
	}
	conn, chans, reqs, err := ssh.NewServerConn(raw, config)
	if err != nil {
		return fmt.Errorf("server handshake: %w", err)
	}
	defer conn.Close()
	go ssh.DiscardRequests(reqs)
	nc, ok := <-chans
	if !ok {
		return errors.New("no channel")
	}
	if nc.ChannelType() != "session" {
		return fmt.Errorf("channel type %q", nc.ChannelType())
	}
	ch, creqs, err := nc.Accept()
	if err != nil {
		return err
	}
	go ssh.DiscardRequests(creqs)
	go func() {
		for nc := range chans {
			nc.Reject(ssh.Prohibited, "one channel only")
		}
	}()
	buf := make([]byte, 256<<10)
	for {
		n, err := ch.Read(buf)
		if n > 0 {
			got <- bytes.Clone(buf[:n])
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
