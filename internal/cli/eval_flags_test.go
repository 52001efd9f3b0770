package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
)

// parseEval runs eval's flag parsing through its run-function seam.
func parseEval(t *testing.T, args ...string) (*evalOptions, error) {
	t.Helper()
	var got *evalOptions
	app := &App{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	cmd := newCmdEval(app, func(o *evalOptions) error { got = o; return nil })
	typeUsageErrors(cmd)
	cmd.SetArgs(args)
	cmd.SetOut(app.Out)
	cmd.SetErr(app.Err)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return got, cmd.Execute()
}

// TestEvalFlags: eval's flags resolve to the configuration, seeds, test
// normalisation and GA it runs with, by the flags alone.
func TestEvalFlags(t *testing.T) {
	type resolved struct {
		Arch    model.Arch
		Kappa   int
		Bits    int
		Penalty model.Regularizer
		Seeds   []uint64
		Norm    protocol.TestNorm
		GA      bool
	}
	for _, tc := range []struct {
		name string
		args []string
		want resolved
	}{
		{"collection", []string{"--data", "d", "--dataset", "iris", "--n", "50", "--seeds", "2"},
			resolved{Arch: model.IntRVFL, Kappa: 3, Penalty: model.RegVariance, Seeds: []uint64{0, 1}, Norm: protocol.TestNormOwn}},
		{"CSV with the GA", []string{"--data", "x.csv", "--n", "50", "--bits", "5", "--ga", "rounded", "--seed", "10", "--seeds", "2"},
			resolved{Arch: model.IntRVFL, Kappa: 3, Bits: 5, Penalty: model.RegIdentity, Seeds: []uint64{10, 11}, GA: true}},
		{"CSV rvfl", []string{"--data", "x.csv", "--n", "50", "--arch", "rvfl", "--seeds", "1", "--regularizer", "variance"},
			resolved{Arch: model.RVFL, Kappa: 3, Penalty: model.RegVariance, Seeds: []uint64{defaultSeed}}}, // κ: the flag's default, unused without Traits.Kappa
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := parseEval(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			got := resolved{Arch: o.cfg.Arch, Kappa: o.cfg.Kappa, Bits: o.cfg.ReadoutBits, Penalty: o.cfg.Regularizer,
				Seeds: o.seedList, Norm: o.testNm, GA: o.gaOpt != nil}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("%v (-want +got):\n%s", tc.args, d)
			}
		})
	}
}

// TestEvalFlagErrors: a bad combination of flags is a usage error before
// any file is read.
func TestEvalFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", "x.csv", "--n", "50", "--arch", "rvfl", "--ga", "rounded"}, "the GA refines an integer readout"},
		{[]string{"--data", "x.csv", "--n", "50", "--test-norm", "train"}, "--test-norm does not apply with a CSV file"},
		{[]string{"--data", "d", "--dataset", "iris", "--n", "50", "--seed", "3"}, "--seed does not apply with a collection dataset"},
		{[]string{"--data", "d", "--dataset", "iris", "--n", "50", "--seeds", "0"}, "--seeds 0"},
		{[]string{"--data", "x.csv", "--n", "50", "--arch", "rvfl8", "--win", "lfsr"}, "not rvfl8"},
		{[]string{"--data", "x.csv", "--n", "50", "--arch", "intrvfl", "--select", "4"}, "--select applies to --arch conj, not intrvfl"},
		{[]string{"--data", "x.csv", "--n", "50", "--arch", "conj", "--select", "65"}, "--select"},
		{[]string{"--data", "x.csv", "--n", "50", "--arch", "intrvfl", "--direct-links"}, "apply to --arch rvfl"},
		{[]string{"--data", "x.csv"}, `required flag(s) "n" not set`},
	} {
		_, err := parseEval(t, tc.args...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want a usage error mentioning %q", tc.args, err, tc.want)
		}
	}
}
