package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
)

// Memory rule. Sizes are checked against the formats' limits before anything
// is read; once the data's shape is known, the big allocations a command will
// make are estimated (train: the M×N activations, a scaled copy of them and
// the min(M, N)² ridge system in float64; quantize --ga: two GA populations of
// L×(N+M) int32 and the M×N int8 activations twice; emit: the vectors and
// their hex files) and refused when they exceed the machine's physical memory
// (MemTotal of /proc/meminfo). Less than that may still be too much on a busy
// machine; more can never work without swapping.

// memTotal reads MemTotal from /proc/meminfo; ok is false where it cannot.
func memTotal() (uint64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) == 3 && string(f[0]) == "MemTotal:" && string(f[2]) == "kB" {
			kb, err := strconv.ParseUint(string(f[1]), 10, 64)
			return kb << 10, err == nil && kb > 0
		}
	}
	return 0, false
}

// checkMemory refuses work whose estimated allocation, need bytes, exceeds
// the machine's memory. what says what would be allocated.
func (app *App) checkMemory(what string, need float64) error {
	total := app.MemTotal
	if total == nil {
		total = memTotal
	}
	have, ok := total()
	if !ok || need <= float64(have) {
		return nil
	}
	return usagef("%s needs about %s of memory, more than this machine's %s", what, formatBytes(need), formatBytes(float64(have)))
}

// formatBytes renders a byte count with a binary unit.
func formatBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := 0
	for b >= 1024 && u < len(units)-1 {
		b /= 1024
		u++
	}
	return fmt.Sprintf("%.1f %s", b, units[u])
}

// inRange returns a usage error naming flag and the valid range [lo, hi]
// when v lies outside it.
func inRange(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return usagef("%s %d outside [%d, %d]", flag, v, lo, hi)
	}
	return nil
}

// positive returns a usage error naming flag unless v is finite and > 0.
func positive(flag string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return usagef("%s %v: want a finite value > 0", flag, v)
	}
	return nil
}
