package main

import "errors"

func runOverlay(args []string) error { return errors.New("not written yet") }
