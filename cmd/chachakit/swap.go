package main

import "errors"

func runSwap(args []string) error   { return errors.New("not written yet") }
func runUnswap(args []string) error { return errors.New("not written yet") }
