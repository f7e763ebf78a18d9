//go:build !unix

package main

import (
	"errors"
	"time"
)

// cpuTime has no getrusage to ask here: -reps is for Unix systems.
func cpuTime() (time.Duration, error) {
	return 0, errors.New("-reps needs getrusage, which this system does not have")
}
