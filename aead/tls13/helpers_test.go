package tls13_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// testServerName is the name in the test certificate.
const testServerName = "chachakit.test"

// selfSigned returns a fresh ECDSA P-256 certificate for testServerName
// and a pool that trusts it.
func selfSigned(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: testServerName},
		DNSNames:              []string{testServerName},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// Making crypto/tls choose ChaCha20
//
// crypto/tls has no setting for the TLS 1.3 cipher suites (Config.CipherSuites
// covers TLS 1.0–1.2 only). A Go 1.26 server picks from
// defaultCipherSuitesTLS13NoAES, which puts TLS_CHACHA20_POLY1305_SHA256
// first, when it has no AES-GCM hardware support or when the first suite in
// the ClientHello it knows is not AES-GCM (handshake_server_tls13.go,
// isAESGCMPreferred in cipher_suites.go); a Go client lists the TLS 1.3
// suites in that same hardware-dependent order. On amd64 with AES-NI and
// on arm64 with the AES extension (qemu's cortex-a72 has it) both pick
// AES-128-GCM. Two ways around that, both used by the tests:
//
//   - In process: a client that also offers TLS 1.2 with only
//     TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 in Config.CipherSuites
//     puts that suite first in its ClientHello, so the server, limited to
//     TLS 1.3, takes the no-AES order. This is not possible for QUIC, which
//     requires MinVersion TLS 1.3, and it only works while the server is
//     crypto/tls with the logic above.
//   - Re-execution: the test runs itself again in a child process with
//     GODEBUG=cpu.aes=off, which internal/cpu honours on amd64 and arm64
//     (option "aes"), so crypto/tls believes there is no AES hardware. The
//     child is os.Args[0] with -test.run selecting the one test. Under
//     qemu-user (go test -exec qemu-...), a foreign binary can only be
//     executed directly if binfmt_misc has a handler for it; when the exec
//     fails with ENOEXEC the child is started through qemu itself: the
//     command in CHACHAKIT_QEMU if set (for example
//     "qemu-aarch64-static -cpu cortex-a72"), otherwise
//     qemu-<arch>-static from PATH, which takes its CPU model from
//     QEMU_CPU when that is set (as scripts/qemu-exec.sh sets it) and uses
//     its default model otherwise. The host kernel runs that x86-64 qemu
//     binary natively, since qemu-user passes execve through. (This
//     machine has no binfmt_misc handlers, so the fallback is what runs
//     here.)
//
// On loong64 and riscv64 crypto/tls has no AES-GCM assembly, so ChaCha20 is
// negotiated in process and no child is needed.

// childEnv marks the re-executed child process.
const childEnv = "CHACHAKIT_TLS13_CHILD"

// inChild reports whether this process is a child started by runWithoutAES.
func inChild() bool { return os.Getenv(childEnv) == "1" }

// qemuArch maps GOARCH to the qemu-user binary suffix.
var qemuArch = map[string]string{
	"arm64": "aarch64", "loong64": "loongarch64", "riscv64": "riscv64",
	"amd64": "x86_64", "386": "i386", "ppc64le": "ppc64le", "ppc64": "ppc64",
	"s390x": "s390x", "arm": "arm",
}

// runWithoutAES runs the current test again in a child process of this test
// binary with GODEBUG=cpu.aes=off and fails t if the child fails or does not
// run the test. It must be called from a test that has not yet failed.
func runWithoutAES(t *testing.T) {
	t.Helper()
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	args := []string{"-test.run=" + strings.Join(parts, "/"), "-test.v", "-test.count=1", "-test.timeout=10m"}
	godebug := "cpu.aes=off"
	if old := os.Getenv("GODEBUG"); old != "" {
		godebug = old + "," + godebug
	}
	env := append(os.Environ(), childEnv+"=1", "GODEBUG="+godebug)

	run := func(name string, argv ...string) ([]byte, error) {
		cmd := exec.Command(name, argv...)
		cmd.Env = env
		return cmd.CombinedOutput()
	}
	var out []byte
	var err error
	how := "directly"
	if q := strings.Fields(os.Getenv("CHACHAKIT_QEMU")); len(q) > 0 {
		how = "through CHACHAKIT_QEMU=" + strings.Join(q, " ")
		out, err = run(q[0], append(append(q[1:], os.Args[0]), args...)...)
	} else {
		out, err = run(os.Args[0], args...)
		if isExecFormatError(err) {
			// A foreign binary without a binfmt_misc handler: this is
			// qemu-user. Start the child through qemu ourselves.
			qemu, lerr := exec.LookPath("qemu-" + qemuArch[runtime.GOARCH] + "-static")
			if lerr != nil {
				t.Fatalf("cannot run the child test binary (%v) and found no qemu to run it with (%v); set CHACHAKIT_QEMU to the qemu command", err, lerr)
			}
			how = "through " + qemu
			if c := os.Getenv("QEMU_CPU"); c != "" {
				how += " (QEMU_CPU=" + c + ")"
			}
			out, err = run(qemu, append([]string{os.Args[0]}, args...)...)
		}
	}
	if strings.Contains(string(out), `unknown cpu feature "aes"`) {
		// ppc64 and ppc64le: crypto/tls counts AES-GCM as hardware
		// accelerated and GODEBUG has no switch for it, so no
		// configuration makes it pick ChaCha20-Poly1305 by itself.
		t.Skipf("GODEBUG cannot turn AES off on %s, so crypto/tls keeps AES-GCM: %s", runtime.GOARCH, strings.TrimSpace(string(out)))
	}
	t.Logf("re-ran %s %s with GODEBUG=%s; its output:\n%s", t.Name(), how, godebug, out)
	if err != nil {
		t.Fatalf("child process: %v", err)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("the child process did not run and pass %s", t.Name())
	}
}
