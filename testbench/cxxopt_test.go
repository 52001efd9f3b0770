package testbench

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCXXOptFromEnv: the variable's value is taken when it is one of
// CXXOpts, refused with its name otherwise, and "" when unset.
func TestCXXOptFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env, want string
		bad       bool
	}{
		{"", "", false}, {"-O0", "-O0", false}, {"-Os", "-Os", false}, {"-O9", "", true}, {"O0", "", true},
	} {
		t.Setenv(CXXOptEnv, tc.env)
		got, err := CXXOptFromEnv()
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("%s=%q: %q, %v; want %q, error %v", CXXOptEnv, tc.env, got, err, tc.want, tc.bad)
		}
		if err != nil && !strings.Contains(err.Error(), CXXOptEnv) {
			t.Errorf("%s=%q: the error %q does not name the variable", CXXOptEnv, tc.env, err)
		}
	}
}

// TestCXXOptVars: the make variables of each optimisation.
func TestCXXOptVars(t *testing.T) {
	for _, tc := range []struct {
		opt  string
		want []string
	}{
		{"", nil},
		{"-O0", []string{"OPT_FAST=-O0", "OPT_SLOW=-O0", "OPT_GLOBAL=-O0", "VM_PARALLEL_BUILDS=0"}},
		{"-O2", []string{"OPT_FAST=-O2", "OPT_SLOW=-O2", "OPT_GLOBAL=-O2"}},
	} {
		if diff := cmp.Diff(tc.want, CXXOptVars(tc.opt)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.opt, diff)
		}
	}
}
