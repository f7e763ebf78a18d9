//go:build !go1.26

package aead

// fips140Enforced is false before Go 1.26, which has no public way to ask
// whether GODEBUG=fips140=only is in force; x/crypto's New and NewX do the same.
func fips140Enforced() bool { return false }
