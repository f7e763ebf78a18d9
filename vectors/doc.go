// Package vectors holds published test vectors for ChaCha20, Poly1305,
// ChaCha20-Poly1305, HChaCha20, XChaCha20 and XChaCha20-Poly1305 as plain
// Go data, so that any implementation in this module can be checked against
// the same known answers.
//
// Every vector carries a Source field naming the document and the section
// (or appendix test vector number) it was transcribed from. The sources are:
//
//   - RFC 8439, "ChaCha20 and Poly1305 for IETF Protocols"
//     (https://www.rfc-editor.org/rfc/rfc8439): the quarter round, block
//     function, stream cipher, Poly1305, Poly1305 key generation and AEAD
//     examples of Section 2 and Appendix A. See rfc8439.go.
//   - draft-irtf-cfrg-xchacha-03, "XChaCha: eXtended-nonce ChaCha and
//     AEAD_XChaCha20_Poly1305"
//     (https://datatracker.ietf.org/doc/html/draft-irtf-cfrg-xchacha-03):
//     the HChaCha20 example of Section 2.2.1 and the developer-friendly
//     vectors of Appendix A.3. See xchacha.go.
//   - Project Wycheproof (https://github.com/C2SP/wycheproof): its
//     chacha20_poly1305_test.json and xchacha20_poly1305_test.json, copied
//     unchanged into testdata/wycheproof with the project's licence, embedded,
//     and decoded by the loaders in wycheproof.go.
//
// All byte slices are decoded once, when the package is initialised. Callers
// must treat them as read-only; copy a slice before modifying it.
//
// The module's tests check every transcribed vector against
// golang.org/x/crypto as well as against chachakit, so a transcription error
// cannot hide. x/crypto keeps its vectors in unexported test files; this
// package exports them for any implementation's tests. It is plain data and
// Go code: no build tag or GODEBUG setting changes it.
package vectors
