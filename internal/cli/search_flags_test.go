package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
)

// parseSearch runs search's flag parsing through its run-function seam:
// the checked options, or the usage error, without any search.
func parseSearch(t *testing.T, args ...string) (*searchOptions, error) {
	t.Helper()
	var got *searchOptions
	app := &App{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	cmd := newCmdSearch(app, func(o *searchOptions) error { got = o; return nil })
	typeUsageErrors(cmd)
	cmd.SetArgs(args)
	cmd.SetOut(app.Out)
	cmd.SetErr(app.Err)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.Execute()
	return got, err
}

// TestSearchFlags: search's flags resolve to the options the search runs
// with (network, grid, penalty, shard, GA, seeds), by the flags alone.
func TestSearchFlags(t *testing.T) {
	type resolved struct {
		Linear  bool
		Network protocol.Network
		Lambdas int
		Penalty model.Regularizer
		Win     model.WinGen
		Select  int
		Shard   *jobs.Shard
		GA      bool
		Seeds   []uint64
	}
	for _, tc := range []struct {
		name string
		args []string
		want resolved
	}{
		{"collection defaults", []string{"--data", "d", "--dataset", "iris"},
			resolved{Network: protocol.IntRVFL, Lambdas: 16, Penalty: model.RegVariance}},
		{"collection shard", []string{"--data", "d", "--dataset", "iris", "--shard", "1/3", "--arch", "rvfl"},
			resolved{Network: protocol.RVFL, Lambdas: 16, Penalty: model.RegVariance, Shard: &jobs.Shard{Index: 1, Count: 3}}},
		{"CSV with bits: the wide grid, identity", []string{"--data", "x.csv", "--bits", "5", "--ga", "rounded", "--seeds", "2", "--seed", "7"},
			resolved{Network: protocol.IntRVFL, Lambdas: 26, Penalty: model.RegIdentity, GA: true, Seeds: []uint64{7, 8}}},
		{"CSV with bits and the paper grid", []string{"--data", "x.csv", "--bits", "5", "--grid", "paper"},
			resolved{Network: protocol.IntRVFL, Lambdas: 16, Penalty: model.RegIdentity, Seeds: []uint64{defaultSeed}}},
		{"CSV with bits and the large grid (every other λ)", []string{"--data", "x.csv", "--bits", "5", "--grid", "large"},
			resolved{Network: protocol.IntRVFL, Lambdas: 13, Penalty: model.RegIdentity, Seeds: []uint64{defaultSeed}}},
		{"CSV with bits and the coarse grid", []string{"--data", "x.csv", "--bits", "5", "--grid", "coarse"},
			resolved{Network: protocol.IntRVFL, Lambdas: 26, Penalty: model.RegIdentity, Seeds: []uint64{defaultSeed}}},
		{"generated W_in", []string{"--data", "x.csv", "--win", "lfsr"},
			resolved{Network: protocol.IntRVFL, Lambdas: 16, Penalty: model.RegIdentity, Win: model.WinPRBS31, Seeds: []uint64{defaultSeed}}},
		{"chosen conj", []string{"--data", "x.csv", "--arch", "conj", "--select", "4"},
			resolved{Network: protocol.Network(model.Conj), Lambdas: 16, Penalty: model.RegIdentity, Select: 4, Seeds: []uint64{defaultSeed}}},
		{"linear", []string{"--data", "x.csv", "--arch", "linear"}, resolved{Linear: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := parseSearch(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			got := resolved{Linear: o.linear, Network: o.network, Lambdas: len(o.gridSpec.Lambdas), Penalty: o.penalty,
				Win: o.winGen, Select: o.selectUnits, Shard: o.shardSel, GA: o.gaOpt != nil, Seeds: o.seedList}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("%v (-want +got):\n%s", tc.args, d)
			}
		})
	}
}

// TestSearchFlagErrors: a bad combination of flags is a usage error before
// any file is read (the files named here do not exist).
func TestSearchFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", "d", "--dataset", "iris", "--arch", "rvfl", "--bits", "5"}, "not rvfl"},
		{[]string{"--data", "x.csv", "--arch", "rvfl", "--bits", "5", "--ga", "rounded"}, "not rvfl"},
		{[]string{"--data", "x.csv", "--ga", "rounded"}, "the GA refines an integer readout"},
		{[]string{"--data", "x.csv", "--arch", "rvfl8", "--win", "lfsr"}, "not rvfl8"},
		{[]string{"--data", "x.csv", "--select", "4"}, "--select applies to --arch conj, not intrvfl"},
		{[]string{"--data", "x.csv", "--arch", "conj", "--select", "1"}, "--select"},
		{[]string{"--data", "x.csv", "--arch", "conj", "--select", "65"}, "--select"},
		{[]string{"--data", "x.csv", "--arch", "linear", "--select", "4"}, "--select does not apply to --arch linear"},
		{[]string{"--data", "d", "--dataset", "iris", "--folds", "3"}, "--folds does not apply with a collection dataset"},
		{[]string{"--data", "d", "--dataset", "iris", "--grid", "small", "--shard", "3/4"}, "only 3 values of N"},
		{[]string{"--data", "x.csv", "--shard", "0/2"}, "--shard does not apply with a CSV file"},
		{[]string{"--data", "x.csv", "--arch", "linear", "--bits", "5"}, "--bits does not apply to --arch linear"},
		{[]string{"--data", "x.csv", "--extend-n", "100"}, "want at least the grid's largest N"},
		{[]string{"--dataset", "iris"}, `required flag(s) "data" not set`},
	} {
		_, err := parseSearch(t, tc.args...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want a usage error mentioning %q", tc.args, err, tc.want)
		}
	}
}
