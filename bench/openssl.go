package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// OpenSSL's `speed` command measures the same work as three of the
// operations: with -aead, each iteration is one TLS record (set the IV, 13
// bytes of additional data, update, final, tag), which is Seal (or, with
// -decrypt, Open) with adLen bytes of additional data; -evp chacha20 is one
// long-lived cipher encrypting in place, which is XORKeyStream.
var opensslArgs = map[string][]string{
	"Seal":         {"-aead", "-evp", "chacha20-poly1305"},
	"Open":         {"-aead", "-decrypt", "-evp", "chacha20-poly1305"},
	"XORKeyStream": {"-evp", "chacha20"},
}

// An opensslRow compares chachakit with OpenSSL at one operation and size,
// in alternating rounds.
type opensslRow struct {
	Op            string    `json:"op"`
	Size          int       `json:"size"`
	OpenSSLMBps   float64   `json:"openssl_mbps"`   // median over the rounds
	ChachakitMBps float64   `json:"chachakit_mbps"` // median of the rounds alternating with OpenSSL's
	Ratio         float64   `json:"ratio"`          // chachakit/openssl; > 1 is faster
	OpenSSLRuns   []float64 `json:"openssl_rounds_mbps"`
	ChachakitRuns []float64 `json:"chachakit_rounds_mbps"`
}

// opensslEnv returns the environment for the openssl command: when GODEBUG
// turns AVX-512 off for Go, OPENSSL_ia32cap turns off OpenSSL's AVX-512F,
// VL and IFMA paths too (the mask leaves its AVX2 code), unless the caller
// set OPENSSL_ia32cap already. The second result names what was added.
func opensslEnv() ([]string, string) {
	env := os.Environ()
	if _, set := os.LookupEnv("OPENSSL_ia32cap"); set {
		return env, ""
	}
	if strings.Contains(os.Getenv("GODEBUG"), "cpu.avx512f=off") {
		add := "OPENSSL_ia32cap=:~0x80210000"
		return append(env, add), add
	}
	return env, ""
}

// runOpenSSL runs one `openssl speed` round of op at size bytes and
// returns its throughput in MB/s.
func runOpenSSL(bin string, env []string, op string, size int) (float64, error) {
	args := append([]string{"speed"}, opensslArgs[op]...)
	args = append(args, "-bytes", strconv.Itoa(size), "-seconds", "1", "-elapsed", "-mr")
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("openssl %s: %v", strings.Join(args, " "), err)
	}
	return parseOpenSSL(out)
}

// parseOpenSSL reads the machine-readable result line of `openssl speed
// -mr`, "+F:index:name:bytes per second", and returns MB/s.
func parseOpenSSL(out []byte) (float64, error) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), ":")
		if len(f) >= 4 && f[0] == "+F" {
			bps, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err != nil {
				return 0, fmt.Errorf("openssl: bad result line %q", sc.Text())
			}
			return bps / 1e6, nil
		}
	}
	return 0, fmt.Errorf("openssl: no +F result line in its output")
}

// measureOpenSSL alternates rounds of chachakit (about d each) with rounds
// of OpenSSL (one second each), switching which goes first.
func measureOpenSSL(bin string, env []string, op operation, size int, d time.Duration, rounds int) (opensslRow, error) {
	r := opensslRow{Op: op.name, Size: size}
	ours := op.prepare(chachakit, size)
	ours(1)
	n := calibrate(func(n int) time.Duration { return timed(ours, n) }, d)
	goRound := func() {
		ns := float64(max(timed(ours, n), time.Nanosecond)) / float64(n)
		r.ChachakitRuns = append(r.ChachakitRuns, float64(size)/ns*1e3)
	}
	for i := range rounds {
		if i%2 == 0 {
			goRound()
		}
		v, err := runOpenSSL(bin, env, op.name, size)
		if err != nil {
			return r, err
		}
		r.OpenSSLRuns = append(r.OpenSSLRuns, v)
		if i%2 == 1 {
			goRound()
		}
	}
	r.OpenSSLMBps, r.ChachakitMBps = median(r.OpenSSLRuns), median(r.ChachakitRuns)
	if r.OpenSSLMBps > 0 {
		r.Ratio = r.ChachakitMBps / r.OpenSSLMBps
	}
	return r, nil
}
