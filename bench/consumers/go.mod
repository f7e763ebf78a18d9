module github.com/chachakit/chachakit/bench/consumers

go 1.26.0

require (
	filippo.io/age v1.3.2
	github.com/quic-go/quic-go v0.66.0
	golang.org/x/crypto v0.59.0
	golang.zx2c4.com/wireguard v0.0.0-20260522210424-ecfc5a8d5446
)

require (
	filippo.io/hpke v0.4.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.zx2c4.com/wintun v0.0.0-20230126152724-0fa3db229ce2 // indirect
)
