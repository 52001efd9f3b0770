// Package hwtest is the one gate for tests that need more than Go: the
// simulators, Yosys, qemu, a C compiler, tclsh, python3 or the UCI-121
// collection. Require skips a test, with the reason, when something it needs
// is missing, and in -short mode (the quick tier, `make check`) when it needs
// something heavy: a Verilator model build, Yosys, qemu or the collection.
//
//	func TestSomething(t *testing.T) {
//		hwtest.Require(t, hwtest.Verilator, hwtest.Icarus)
//		…
//	}
//
// The light needs — Verilator's lint, Icarus, make, a C compiler, tclsh,
// python3 — run in -short mode too, so the quick tier still lints every
// design and simulates small ones in Icarus. Exactly one test of the suite
// uses QuickVerilator, the one Verilator model build the quick tier keeps
// (TestOneQuickVerilatorBuild checks that).
//
// Three tiers run the suite (docs/testing.md): the quick tier (-short, `make
// check`), the standard tier (`make test`, CI) and the full tier (`make
// test-full`, FullTierEnv set). The standard tier runs everything but what
// needs Full: the exhaustive checks (every row of a matrix, every mutant of a
// proof, every design of a cross-check) whose promise a smaller set of rows
// in the standard tier keeps as well — one design per value, not every pair.
//
// No test decides by itself whether a tool is there: every skip for a
// missing tool, for -short or for the standard tier goes through Require
// (TestNoPrivateToolGates).
package hwtest

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Need is something a test needs beyond Go.
type Need struct {
	name  string   // what the test does with it, for the skip message
	tools []string // commands that must be on PATH
	heavy bool     // skipped in -short mode
	env   string   // an environment variable naming a folder that must exist
	full  bool     // run by the full tier only
}

// The needs. Verilator is a model build (verilator, make, a C++ compiler);
// VerilatorLint only runs `verilator --lint-only`.
var (
	Verilator      = Need{name: "a Verilator model build", tools: []string{"verilator", "make", "g++"}, heavy: true}
	QuickVerilator = Need{name: "the quick tier's one Verilator model build", tools: []string{"verilator", "make", "g++"}}
	VerilatorLint  = Need{name: "Verilator's lint", tools: []string{"verilator"}}
	Icarus         = Need{name: "Icarus Verilog", tools: []string{"iverilog", "vvp"}}
	Yosys          = Need{name: "Yosys synthesis", tools: []string{"yosys"}, heavy: true}
	Formal         = Need{name: "formal proofs (Yosys's SAT solver and its ABC)", tools: []string{"yosys", "yosys-abc"}, heavy: true}
	// ICE40 is the iCE40 flow: place and route (nextpnr-ice40) and the bitstream (icepack).
	ICE40      = Need{name: "the iCE40 flow (nextpnr-ice40, icepack)", tools: []string{"yosys", "nextpnr-ice40", "icepack", "python3"}, heavy: true}
	Qemu       = Need{name: "the ARM cross-compiler and qemu-arm", tools: []string{"arm-linux-gnueabihf-gcc", "qemu-arm"}, heavy: true}
	Make       = Need{name: "make", tools: []string{"make"}}
	CC         = Need{name: "a C compiler", tools: []string{"cc"}}
	CXX        = Need{name: "a C++ compiler", tools: []string{"c++"}}
	Tclsh      = Need{name: "tclsh", tools: []string{"tclsh"}}
	Python     = Need{name: "python3", tools: []string{"python3"}}
	Awk        = Need{name: "awk", tools: []string{"awk"}}
	Chromium   = Need{name: "a headless Chromium (a page as a browser renders it)", tools: []string{"chromium"}, heavy: true}
	Collection = Need{name: "the UCI-121 collection", env: CollectionEnv, heavy: true}
)

// CollectionEnv names the folder of the UCI-121 collection.
const CollectionEnv = "HDLGEN_UCI121"

// FullTierEnv selects the full tier when set to 1 (`make test-full` sets it).
const FullTierEnv = "HDLGEN_TEST_FULL"

// Full is the need of an exhaustive check that only the full tier runs: a
// matrix row beyond the standard tier's, a proof's further mutants, a
// cross-check on more designs. It is heavy too (skipped under -short).
var Full = Need{name: "an exhaustive check of the full tier (make test-full)", heavy: true, full: true}

// FullTier reports whether the suite runs as the full tier.
func FullTier() bool { return os.Getenv(FullTierEnv) == "1" }

// Slow is a need for tests that are heavy without an external tool (they
// start many processes or run for minutes): skipped in -short mode, with why.
func Slow(why string) Need { return Need{name: why, heavy: true} }

// Require skips t unless every need is met; in -short mode it also skips t
// when a need is heavy. It names the missing tool or the reason.
func Require(t testing.TB, needs ...Need) {
	t.Helper()
	if reason := Missing(needs...); reason != "" {
		t.Skip(reason)
	}
}

// Missing returns why a test with these needs would be skipped, or "".
func Missing(needs ...Need) string {
	for _, n := range needs {
		if n.heavy && testing.Short() {
			return "-short: skips " + n.name
		}
		if n.full && !FullTier() {
			return fmt.Sprintf("standard tier: skips %s (%s=1 runs it)", n.name, FullTierEnv)
		}
		for _, tool := range n.tools {
			if _, err := exec.LookPath(tool); err != nil {
				return fmt.Sprintf("%s not installed (needed for %s; `make deps` installs it)", tool, n.name)
			}
		}
		if n.env != "" {
			dir := os.Getenv(n.env)
			if dir == "" {
				return fmt.Sprintf("%s not set: %s is not available", n.env, n.name)
			}
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				return fmt.Sprintf("%s=%s is not a folder: %s is not available", n.env, dir, n.name)
			}
		}
	}
	return ""
}

// Quick reports whether the suite runs as the quick tier (-short). A test may
// use it to scale its work down (fewer rows, fewer cases); skipping goes
// through Require.
func Quick() bool { return testing.Short() }

// CollectionDir requires the collection and returns its folder.
func CollectionDir(t testing.TB) string {
	t.Helper()
	Require(t, Collection)
	return os.Getenv(CollectionEnv)
}

// String names the need.
func (n Need) String() string {
	if len(n.tools) == 0 {
		return n.name
	}
	return n.name + " (" + strings.Join(n.tools, ", ") + ")"
}
