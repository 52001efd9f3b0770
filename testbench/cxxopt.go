package testbench

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// CXXOptEnv names the environment variable that gives the g++ optimisation
// of Verilator's models when a caller sets none (verify.Options.CXXOpt "",
// the activity flow's model): `make test` sets it to -O0, since the tests
// simulate few vectors and the make that hdlgen starts does not see the test
// run's MAKEFLAGS (proc.MakeEnv).
const CXXOptEnv = "HDLGEN_VERILATOR_CXX_OPT"

// CXXOpts are the optimisations a Verilator model may be compiled at; ""
// keeps Verilator's (-Os).
var CXXOpts = []string{"", "-O0", "-O1", "-O2", "-O3", "-Os"}

// CXXOptFromEnv returns CXXOptEnv's value ("" when unset), or an error
// naming the variable when it is not one of CXXOpts.
func CXXOptFromEnv() (string, error) {
	opt := os.Getenv(CXXOptEnv)
	if !slices.Contains(CXXOpts, opt) {
		return "", fmt.Errorf("%s=%q: want one of %s", CXXOptEnv, opt, strings.Join(CXXOpts[1:], ", "))
	}
	return opt, nil
}

// CXXOptVars are the make variables of Verilator's generated makefile that
// compile a model at opt (none for ""): OPT_FAST, OPT_SLOW and OPT_GLOBAL,
// and at -O0 the model as one file (VM_PARALLEL_BUILDS=0, Verilator's
// __ALL.cpp): each file of a split build parses Verilator's headers again,
// most of an -O0 compile (docs/testing.md gives the figures).
func CXXOptVars(opt string) []string {
	if opt == "" {
		return nil
	}
	vars := []string{"OPT_FAST=" + opt, "OPT_SLOW=" + opt, "OPT_GLOBAL=" + opt}
	if opt == "-O0" {
		vars = append(vars, "VM_PARALLEL_BUILDS=0")
	}
	return vars
}
