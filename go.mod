module github.com/chachakit/chachakit

go 1.26.4

require (
	github.com/c2sp/wycheproof v0.0.0-20260902155932-3fa63dd0344a
	github.com/google/go-cmp v0.7.0
	golang.org/x/crypto v0.59.0
	golang.org/x/sys v0.50.0
)
