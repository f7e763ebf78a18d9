// Command chachakit brings chachakit to programs that do not import it.
//
// Usage:
//
//	chachakit swap [flags]     in the module of the current directory, send
//	                           golang.org/x/crypto/chacha20 and
//	                           golang.org/x/crypto/chacha20poly1305 to chachakit
//	chachakit unswap [flags]   undo swap
//	chachakit overlay [flags]  write a go build -overlay file that sends
//	                           crypto/tls's ChaCha20-Poly1305 to chachakit
//
// Run "chachakit <command> -h" for a command's flags.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "swap":
		err = runSwap(args)
	case "unswap":
		err = runUnswap(args)
	case "overlay":
		err = runOverlay(args)
	case "help", "-h", "-help", "--help":
		usage()
	default:
		fmt.Fprintf(os.Stderr, "chachakit: unknown command %q\n", cmd)
		usage()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "chachakit %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprint(os.Stderr, `usage: chachakit <command> [flags]

commands:
  swap      send golang.org/x/crypto's chacha20 and chacha20poly1305 to chachakit in this module
  unswap    undo swap
  overlay   write a go build -overlay file that sends crypto/tls's ChaCha20-Poly1305 to chachakit
`)
	os.Exit(2)
}
