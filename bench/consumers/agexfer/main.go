// Command agexfer measures filippo.io/age encrypting and decrypting -size
// bytes to and from one X25519 recipient, in memory. age's payload is
// ChaCha20-Poly1305 (golang.org/x/crypto/chacha20poly1305) in 64 KiB
// chunks; the per-file X25519 and HKDF steps are a small share at this
// size.
//
// It prints two lines of package phase, CPU and wall time per operation:
// encrypt (-reps encryptions of the same plaintext, each to a fresh file
// key) and decrypt (-reps decryptions of the last of those files). One
// encryption and one decryption more, first, are not measured. The
// decrypted plaintext is compared with the original after the untimed
// decryption and after the timed ones, outside the timing: a comparison
// of 16 MiB is not age's work, and would be a fifth of a decryption's time.
package main

import (
	"bytes"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"filippo.io/age"
	"github.com/chachakit/chachakit/bench/consumers/internal/phase"
)

func main() {
	size := flag.Int("size", 16<<20, "plaintext bytes")
	reps := flag.Int("reps", 4, "measured encryptions, and measured decryptions")
	flag.Parse()
	if err := run(*size, *reps); err != nil {
		fmt.Fprintln(os.Stderr, "agexfer:", err)
		os.Exit(1)
	}
}

func run(size, reps int) error {
	if size <= 0 || reps <= 0 {
		return errors.New("-size and -reps must be positive")
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return err
	}
	plain := make([]byte, size)
	rand.Read(plain)
	var file bytes.Buffer
	file.Grow(size + size/(64<<10)*16 + 1024)
	out := make([]byte, size)

	encrypt := func() error {
		file.Reset()
		w, err := age.Encrypt(&file, id.Recipient())
		if err != nil {
			return err
		}
		if _, err := w.Write(plain); err != nil {
			return err
		}
		return w.Close()
	}
	decrypt := func() error {
		r, err := age.Decrypt(bytes.NewReader(file.Bytes()), id)
		if err != nil {
			return err
		}
		if _, err := io.ReadFull(r, out); err != nil {
			return err
		}
		if n, err := r.Read(make([]byte, 1)); n != 0 || err != io.EOF {
			return fmt.Errorf("after the plaintext: %d bytes, %v; want io.EOF", n, err)
		}
		return nil
	}
	check := func() error {
		if !bytes.Equal(out, plain) {
			return errors.New("decrypted data differs")
		}
		clear(out)
		return nil
	}

	for _, c := range []struct {
		name  string
		f     func() error
		check func() error // after the untimed run and after the timed ones
	}{
		{"encrypt", encrypt, func() error { return nil }},
		{"decrypt", decrypt, check},
	} {
		if err := c.f(); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if err := c.check(); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		start := phase.Now()
		for range reps {
			if err := c.f(); err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
		}
		phase.Print(fmt.Sprintf("%s-%d", c.name, size), reps, start)
		if err := c.check(); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
	}
	return nil
}
