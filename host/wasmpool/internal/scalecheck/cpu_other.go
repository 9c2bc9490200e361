//go:build !unix

package main

import "time"

// cpuTime is zero where the process's CPU time is not read (outside Unix).
func cpuTime() time.Duration { return 0 }
