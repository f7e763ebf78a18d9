package vectors

import (
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
)

// wycheproofFiles holds Wycheproof's two ChaCha20-Poly1305 files, copied
// unchanged from the testvectors_v1 directory of the Go module
// github.com/c2sp/wycheproof at v0.0.0-20260902155932-3fa63dd0344a (Apache
// License 2.0, testdata/wycheproof/LICENSE). A copy, not a requirement on that
// module: its go.mod asks for a newer Go than this module does, and every
// module that requires chachakit would inherit it.
//
//go:embed testdata/wycheproof/*.json
var wycheproofFiles embed.FS

// WycheproofFS returns the Wycheproof files this package reads, by the names
// below.
func WycheproofFS() fs.FS {
	sub, err := fs.Sub(wycheproofFiles, "testdata/wycheproof")
	if err != nil {
		panic(err)
	}
	return sub
}

// Names of the Wycheproof files read by this package, relative to the root
// of WycheproofFS (Wycheproof's testvectors_v1 directory).
const (
	WycheproofChaCha20Poly1305File  = "chacha20_poly1305_test.json"
	WycheproofXChaCha20Poly1305File = "xchacha20_poly1305_test.json"
)

// WycheproofAEADTest is one decoded test case of a Wycheproof AeadTest file.
//
// Valid reports whether the file marks the case "valid". An invalid case
// must be rejected on decryption; its Nonce or Tag may have a length the
// algorithm does not accept.
type WycheproofAEADTest struct {
	TcID    int
	Comment string
	Flags   []string
	Key     []byte
	Nonce   []byte // the file's "iv" field
	AAD     []byte
	Msg     []byte
	CT      []byte // ciphertext without the tag
	Tag     []byte
	Valid   bool
}

// WycheproofChaCha20Poly1305 returns every test case of Wycheproof's
// chacha20_poly1305_test.json.
func WycheproofChaCha20Poly1305() ([]WycheproofAEADTest, error) {
	return LoadWycheproofAEAD(WycheproofFS(), WycheproofChaCha20Poly1305File)
}

// WycheproofXChaCha20Poly1305 returns every test case of Wycheproof's
// xchacha20_poly1305_test.json.
func WycheproofXChaCha20Poly1305() ([]WycheproofAEADTest, error) {
	return LoadWycheproofAEAD(WycheproofFS(), WycheproofXChaCha20Poly1305File)
}

// The subset of the Wycheproof AeadTest JSON schema that the loader reads.
type wycheproofAEADFile struct {
	Algorithm     string                `json:"algorithm"`
	NumberOfTests int                   `json:"numberOfTests"`
	TestGroups    []wycheproofAEADGroup `json:"testGroups"`
}

type wycheproofAEADGroup struct {
	Type    string               `json:"type"`
	IVSize  int                  `json:"ivSize"`  // bits
	KeySize int                  `json:"keySize"` // bits
	TagSize int                  `json:"tagSize"` // bits
	Tests   []wycheproofAEADCase `json:"tests"`
}

type wycheproofAEADCase struct {
	TcID    int      `json:"tcId"`
	Comment string   `json:"comment"`
	Flags   []string `json:"flags"`
	Key     string   `json:"key"`
	IV      string   `json:"iv"`
	AAD     string   `json:"aad"`
	Msg     string   `json:"msg"`
	CT      string   `json:"ct"`
	Tag     string   `json:"tag"`
	Result  string   `json:"result"`
}

// LoadWycheproofAEAD reads and decodes the Wycheproof AeadTest file name
// from fsys, flattening its test groups into one slice in file order.
//
// It returns an error if the file is missing or malformed, if a group is
// not of type AeadTest, if a hex field does not decode, if a key or IV
// length disagrees with its group's keySize or ivSize, if a result is
// neither "valid" nor "invalid", or if the number of cases read differs
// from the file's numberOfTests.
func LoadWycheproofAEAD(fsys fs.FS, name string) ([]WycheproofAEADTest, error) {
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("vectors: reading wycheproof %s: %w", name, err)
	}
	var file wycheproofAEADFile
	if err := json.Unmarshal(raw, &file); err != nil {
		return nil, fmt.Errorf("vectors: parsing wycheproof %s: %w", name, err)
	}

	var out []WycheproofAEADTest
	for gi, g := range file.TestGroups {
		if g.Type != "AeadTest" {
			return nil, fmt.Errorf("vectors: wycheproof %s: group %d has type %q, want AeadTest", name, gi, g.Type)
		}
		for _, c := range g.Tests {
			t, err := decodeWycheproofAEADCase(g, c)
			if err != nil {
				return nil, fmt.Errorf("vectors: wycheproof %s: tcId %d: %w", name, c.TcID, err)
			}
			out = append(out, t)
		}
	}
	if len(out) != file.NumberOfTests {
		return nil, fmt.Errorf("vectors: wycheproof %s: read %d test cases, file declares numberOfTests = %d",
			name, len(out), file.NumberOfTests)
	}
	return out, nil
}

func decodeWycheproofAEADCase(g wycheproofAEADGroup, c wycheproofAEADCase) (WycheproofAEADTest, error) {
	t := WycheproofAEADTest{
		TcID:    c.TcID,
		Comment: c.Comment,
		Flags:   c.Flags,
	}
	fields := []struct {
		name string
		src  string
		dst  *[]byte
	}{
		{"key", c.Key, &t.Key},
		{"iv", c.IV, &t.Nonce},
		{"aad", c.AAD, &t.AAD},
		{"msg", c.Msg, &t.Msg},
		{"ct", c.CT, &t.CT},
		{"tag", c.Tag, &t.Tag},
	}
	for _, f := range fields {
		b, err := hex.DecodeString(f.src)
		if err != nil {
			return t, fmt.Errorf("field %s: %w", f.name, err)
		}
		*f.dst = b
	}
	if got := 8 * len(t.Key); got != g.KeySize {
		return t, fmt.Errorf("key is %d bits, group keySize is %d", got, g.KeySize)
	}
	if got := 8 * len(t.Nonce); got != g.IVSize {
		return t, fmt.Errorf("iv is %d bits, group ivSize is %d", got, g.IVSize)
	}
	switch c.Result {
	case "valid":
		t.Valid = true
	case "invalid":
		t.Valid = false
	default:
		return t, fmt.Errorf("unexpected result %q", c.Result)
	}
	return t, nil
}
