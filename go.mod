module github.com/chachakit/chachakit

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/crypto v0.55.0
	golang.org/x/sys v0.47.0
)
