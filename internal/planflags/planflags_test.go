package planflags

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/rtl/plan"
)

// TestEveryOptionHasAFlag: every field of plan.Options is tagged, so that
// emit, the campaign and the hardware study take it without code of their
// own.
func TestEveryOptionHasAFlag(t *testing.T) {
	var names []string
	for _, o := range Options() {
		names = append(names, o.Flag)
		if o.Help == "" {
			t.Errorf("--%s has no help text", o.Flag)
		}
	}
	want := []string{"parallel", "adder-levels", "argmax-levels", "reloadable-readout", "rom-style", "hold-input", "register-sums"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("flags (-want +got):\n%s", diff)
	}
}

func TestBindParseArgs(t *testing.T) {
	var o plan.Options
	fs := pflag.NewFlagSet("emit", pflag.ContinueOnError)
	Bind(fs, &o)
	if o.Parallel != 1 || o.ROMStyle != plan.ROMStyleAuto {
		t.Errorf("defaults: %+v", o)
	}
	if err := fs.Parse([]string{"--parallel", "4", "--hold-input", "--rom-style", "block"}); err != nil {
		t.Fatal(err)
	}
	want := plan.Options{Parallel: 4, HoldInput: true, ROMStyle: plan.ROMStyleBlock}
	if diff := cmp.Diff(want, o); diff != "" {
		t.Errorf("bound options (-want +got):\n%s", diff)
	}
	args := Args(o)
	if diff := cmp.Diff([]string{"--parallel", "4", "--rom-style", "block", "--hold-input"}, args); diff != "" {
		t.Errorf("Args (-want +got):\n%s", diff)
	}
	back, err := Parse(plan.Options{}, args)
	if err != nil || !cmp.Equal(back, o) {
		t.Errorf("Parse(Args) = %+v, %v; want %+v", back, err, o)
	}
	kept, err := Parse(plan.Options{Parallel: 8, RegisterSums: true}, []string{"--hold-input"})
	if want := (plan.Options{Parallel: 8, RegisterSums: true, HoldInput: true}); err != nil || !cmp.Equal(kept, want) {
		t.Errorf("Parse onto a base = %+v, %v; want %+v", kept, err, want)
	}
	if _, err := Parse(plan.Options{}, []string{"--bogus"}); err == nil {
		t.Error("Parse of an unknown flag: no error")
	}
}
