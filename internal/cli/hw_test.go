package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/hwstudy"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"

	"github.com/hdlgen/hdlgen/internal/hwtest"
)

// runCmd executes one command built by ctor (not necessarily registered in the
// root yet) with args, the way Main does, and returns exit code, stdout, stderr.
func runCmd(t *testing.T, ctor func(*App) *cobra.Command, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	app := &App{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(string) string { return "" }}
	root := &cobra.Command{Use: "hdlgen", SilenceUsage: true, SilenceErrors: true}
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(ctor(app))
	typeUsageErrors(root)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return app.exitCode(err), out.String(), errb.String()
}

// TestStudy runs a hardware study through the real command when
// HDLGEN_STUDY_ARGS holds its arguments (a space-separated list), e.g.
//
//	HDLGEN_STUDY_ARGS="power --median-table --data $HDLGEN_UCI121 --out results/hardware"
//
// with HDLGEN_STUDY_DIR the directory to run in. It is how the results under
// results/hardware/ are produced before the commands are registered in the
// root; it is skipped otherwise.
func TestStudy(t *testing.T) {
	args := strings.Fields(os.Getenv("HDLGEN_STUDY_ARGS"))
	if len(args) == 0 {
		t.Skip("HDLGEN_STUDY_ARGS not set")
	}
	if dir := os.Getenv("HDLGEN_STUDY_DIR"); dir != "" {
		t.Chdir(dir) // run where the recorded command would be typed (relative --out)
	}
	ctors := map[string]func(*App) *cobra.Command{"power": newPowerCmd, "size": newSizeCmd, "synth": newSynthCmd}
	ctor, ok := ctors[args[0]]
	if !ok {
		t.Fatalf("unknown command %q", args[0])
	}
	code, out, errs := runCmd(t, ctor, args...)
	t.Logf("stdout:\n%s\nstderr:\n%s", out, errs)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestSizeCommand(t *testing.T) {
	code, out, errs := runCmd(t, newSizeCmd, "size", "--budget", "3.2uJ", "--features", "16", "--num-classes", "4", "--arch", "intrvfl", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var sz power.Sizing
	if err := json.Unmarshal([]byte(out), &sz); err != nil {
		t.Fatalf("output is not a sizing: %v\n%s", err, out)
	}
	if sz.N < 1 || sz.P < 1 || sz.Estimate.BudgetedJ > 3.2e-6 {
		t.Errorf("sizing %+v does not fit 3.2 µJ", sz)
	}
	code, out, _ = runCmd(t, newSizeCmd, "size", "--budget", "3200nJ", "--features", "16", "--num-classes", "4", "--arch", "intrvfl")
	if code != 0 || !strings.Contains(out, "N = ") || !strings.Contains(out, "energy per classification") {
		t.Errorf("text output: exit %d\n%s", code, out)
	}
}

func TestSizeCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--budget", "3.2", "--features", "16", "--num-classes", "4"}, exitUsage, "no unit"},
		{[]string{"--budget", "-1uJ", "--features", "16", "--num-classes", "4"}, exitUsage, "finite value > 0"},
		{[]string{"--budget", "3uJ", "--features", "16", "--num-classes", "4", "--arch", "rvfl"}, exitUsage, "want " + model.Alternatives(power.Networks())},
		{[]string{"--budget", "3uJ", "--features", "16", "--num-classes", "1"}, exitUsage, "--num-classes 1 outside [2, 4096]"},
		{[]string{"--budget", "3uJ", "--features", "16", "--num-classes", "4", "--bits", "1"}, exitUsage, "readout bits"},
		{[]string{"--budget", "1pJ", "--features", "16", "--num-classes", "4"}, exitError, "smallest achievable"},
		{[]string{"--features", "16", "--num-classes", "4"}, exitUsage, `"budget" not set`},
	}
	for _, tc := range tests {
		code, _, errs := runCmd(t, newSizeCmd, append([]string{"size"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("size %v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

func TestPowerCommandModel(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	m := trainedTiny(t)
	if err := model.WriteFile(path, m); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, newPowerCmd, "power", path, "--parallel", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"analytic", "cycles", "dynamic", "PL static", "total"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, _, errs = runCmd(t, newPowerCmd, "power", path, "--parallel", "999")
	if code != exitUsage || !strings.Contains(errs, "--parallel 999") {
		t.Errorf("bad --parallel: exit %d, %q", code, errs)
	}
	code, _, errs = runCmd(t, newPowerCmd, "power", "--median-table", "--out", dir)
	if code != exitUsage || !strings.Contains(errs, "HDLGEN_UCI121") {
		t.Errorf("--median-table without data: exit %d, %q", code, errs)
	}
	code, _, errs = runCmd(t, newPowerCmd, "power", path, "--toggle", "2")
	if code != exitUsage || !strings.Contains(errs, "--toggle") {
		t.Errorf("bad --toggle: exit %d, %q", code, errs)
	}
	code, _, errs = runCmd(t, newPowerCmd, "power", path, "--activity")
	if code != exitUsage || !strings.Contains(errs, "--activity needs an emitted design DIR") {
		t.Errorf("--activity on a model: exit %d, %q", code, errs)
	}
	code, _, errs = runCmd(t, newPowerCmd, "power", "median-table", "--out", dir, "--activity-vectors", "-1")
	if code != exitUsage || !strings.Contains(errs, "--activity-vectors -1") {
		t.Errorf("--activity-vectors -1: exit %d, %q", code, errs)
	}
}

// TestPowerSubcommands: the studies are subcommands; the old flag spellings
// still work as hidden aliases.
func TestPowerSubcommands(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		args    []string
		code    int
		want    string // in stdout+stderr
		wantNot string
	}{
		{"median-table without data", []string{"power", "median-table", "--out", dir}, exitUsage, "HDLGEN_UCI121", ""},
		{"alias without data", []string{"power", "--median-table", "--out", dir}, exitUsage, "HDLGEN_UCI121", ""},
		{"median-table without out", []string{"power", "median-table"}, exitUsage, "--out DIR is required", ""},
		{"calibrate with a penalty", []string{"power", "calibrate", "--regularizer", "variance", "--out", dir}, exitUsage, "--regularizer applies to median-table only", ""},
		{"alias with a penalty", []string{"power", "--calibrate", "--regularizer", "variance", "--out", dir}, exitUsage, "--regularizer applies to median-table only", ""},
		{"both aliases", []string{"power", "--calibrate", "--median-table"}, exitUsage, "separate runs", ""},
		{"subcommand takes no DIR", []string{"power", "calibrate", dir}, exitUsage, "unknown command", ""},
		{"calibrate an unknown section", []string{"power", "calibrate", "--section", "nosuch", "--out", dir}, exitUsage, `--section "nosuch": want one of base, large-n, odd-p, range`, ""},
		{"a section keeps the other rows", []string{"power", "calibrate", "--section", "range", "--out", dir}, exitError, "--section keeps the other sections' rows of", ""},
		{"median-table has no sections", []string{"power", "median-table", "--section", "range", "--out", dir, "--data", dir}, exitUsage, "--section applies to calibrate only", ""},
		{"help lists the subcommands, hides the aliases", []string{"power", "--help"}, 0, "median-table", "--jobs"},
		{"help lists --activity", []string{"power", "--help"}, 0, "--activity-vectors", "--no-activity"},
		{"median-table has --no-activity", []string{"power", "median-table", "--help"}, 0, "--no-activity", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCmd(t, newPowerCmd, tc.args...)
			all := out + errs
			if code != tc.code || !strings.Contains(all, tc.want) || (tc.wantNot != "" && strings.Contains(all, tc.wantNot)) {
				t.Errorf("exit %d, want %d; output should contain %q and not %q:\n%s", code, tc.code, tc.want, tc.wantNot, all)
			}
		})
	}
}

func trainedTiny(t *testing.T) *model.Model {
	t.Helper()
	d := model.Data{Name: "tiny", ClassNames: []string{"a", "b"}}
	for r := 0; r < 40; r++ {
		y := r % 2
		d.Y = append(d.Y, y)
		d.X = append(d.X, float64(y)+0.1*float64(r%5), float64(1-y)+0.05*float64(r%3), float64(r%7))
	}
	m, err := model.Train(context.Background(), d, model.Config{Arch: model.IntRVFL, N: 32, Kappa: 3, Lambda: 1, ReadoutBits: 5})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPowerRefusesDesignsThatDoNotFit: an rvfl8 with one DSP48E1 per neuron
// at P = N = 1024 needs far more than the xc7z020's 220 DSPs; power says so
// with the utilisation and exits non-zero instead of printing an energy.
func TestPowerRefusesDesignsThatDoNotFit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	m := randmodel.Random(randmodel.Shape{Arch: model.RVFL8, K: 16, N: 1024, L: 4}, "big", 1)
	if err := model.WriteFile(path, m); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p       string
		code    int
		want    string
		wantNot string
	}{
		{"1024", exitError, "does not fit the xc7z020", "energy per classification"},
		{"1", 0, "energy per classification", "does not fit"},
	} {
		code, out, errs := runCmd(t, newPowerCmd, "power", path, "--parallel", tc.p)
		if code != tc.code || !strings.Contains(out+errs, tc.want) || strings.Contains(out+errs, tc.wantNot) {
			t.Errorf("P=%s: exit %d, stdout %q, stderr %q; want exit %d with %q", tc.p, code, out, errs, tc.code, tc.want)
		}
		if tc.code != 0 && !strings.Contains(errs, "utilisation LUT") {
			t.Errorf("P=%s: stderr %q lacks the utilisation", tc.p, errs)
		}
	}
}

// TestSynthAndPowerShowFmax: hdlgen synth prints the resources with LUT cells
// and LC apart, then the estimated Fmax with its worst path; --json carries
// the timing report; hdlgen power DIR prints the same Fmax.
func TestSynthAndPowerShowFmax(t *testing.T) {
	hwtest.Require(t, hwtest.Yosys)
	dir := filepath.Join(t.TempDir(), "tiny")
	if _, err := rtl.Emit(context.Background(), trainedTiny(t), rtl.Options{Options: plan.Options{Parallel: 2}, Vectors: 4}, dir); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, newSynthCmd, "synth", dir)
	if code != 0 {
		t.Fatalf("synth: exit %d: %s", code, errs)
	}
	fmax := regexp.MustCompile(`Fmax ([0-9.]+) MHz \(([0-9.]+) ns, \d+ levels; meets 100 MHz\) — estimated by hdlgen's static timing model`).FindStringSubmatch(out)
	if fmax == nil || !strings.Contains(out, "LUT cells") || !strings.Contains(out, "LC (LUT6 sites)") || !strings.Contains(out, "setup") {
		t.Fatalf("synth output lacks the labelled resources or the timing estimate:\n%s", out)
	}
	code, out, errs = runCmd(t, newSynthCmd, "synth", dir, "--json")
	var js struct {
		LUTs   int `json:"luts"`
		Timing struct {
			FmaxMHz float64 `json:"fmax_mhz"`
			Path    []struct {
				Cell string `json:"cell"`
			} `json:"path"`
		} `json:"timing"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &js) != nil || js.LUTs == 0 || len(js.Timing.Path) == 0 ||
		fmt.Sprintf("%.1f", js.Timing.FmaxMHz) != fmax[1] {
		t.Errorf("synth --json: exit %d, %+v (text said %s MHz); stderr %s", code, js, fmax[1], errs)
	}
	code, out, errs = runCmd(t, newPowerCmd, "power", dir)
	if code != 0 || !strings.Contains(out, "Fmax "+fmax[1]+" MHz") || !strings.Contains(out, "resources: Yosys report") {
		t.Errorf("power: exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
}

// TestActivityVectorsBounded: --activity-vectors 0 is refused (it silently
// meant 16) and so is a count past the bound (10⁹ ran for minutes) — issue 26,
// item 15.
func TestActivityVectorsBounded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tiny")
	if _, err := rtl.Emit(context.Background(), trainedTiny(t), rtl.Options{Options: plan.Options{Parallel: 2}, Vectors: 4}, dir); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"0", "-1", "1000000000"} {
		code, _, errs := run(t, "power", dir, "--activity", "--activity-vectors", n)
		if code != exitUsage || !strings.Contains(errs, "--activity-vectors "+n+" outside [1, 10000]") {
			t.Errorf("--activity-vectors %s: exit %d, %q", n, code, errs)
		}
	}
}

// TestMedianVariantSpellings: the median table's designs are named by
// --variant; the older one-flag-per-variant spelling, which the committed
// table's recorded command uses, asks for exactly the same designs.
func TestMedianVariantSpellings(t *testing.T) {
	runsOf := func(args ...string) []hwstudy.MedianRun {
		t.Helper()
		o := &powerOptions{median: true}
		f := pflag.NewFlagSet("median-table", pflag.ContinueOnError)
		o.bindStudy(f)
		if err := f.Parse(args); err != nil {
			t.Fatal(err)
		}
		runs, err := o.medianRuns()
		if err != nil {
			t.Fatal(err)
		}
		return runs
	}
	old := runsOf("--median-p", "1,8,16,32", "--median-rvfl8-p", "1,4,8", "--median-int-block-p", "8,16",
		"--median-lean-p", "1,8", "--median-lean-lut-p", "1,8")
	now := runsOf("--variant", "default:intrvfl=1,8,16,32", "--variant", "default:rvfl8=1,4,8", "--variant", "rvfl8-block=4,8",
		"--variant", "int-block=8,16", "--variant", "lean=1,8", "--variant", "lean-lut=1,8")
	norm := func(rs []hwstudy.MedianRun) map[string][]int {
		m := map[string][]int{}
		for _, r := range rs {
			for _, net := range []model.Arch{model.IntRVFL, model.RVFL8} {
				if r.Net == "" || r.Net == net {
					if v, ok := hwstudy.VariantFor(r.Variant, net); ok && v {
						m[r.Variant+":"+string(net)] = r.Ps
					}
				}
			}
		}
		return m
	}
	if diff := cmp.Diff(norm(old), norm(now)); diff != "" {
		t.Errorf("designs (-older flags +--variant):\n%s", diff)
	}
	if _, err := (&powerOptions{variants: []string{"lean=1"}, legacy: map[string]*string{"median-p": ptr("8")}}).medianRuns(); err == nil {
		t.Error("--variant with --median-p: no error")
	}
}

func ptr(s string) *string { return &s }

// TestSynthICE40: for an --board icebreaker design, synth --route places and
// routes it and prints hdlgen's iCE40 estimate beside nextpnr's routed
// figures (--json: the ice40 object); power prints the same and says its
// energy is the Zynq model's; --route on a ZedBoard design is refused
// before anything runs.
func TestSynthICE40(t *testing.T) {
	zed := filepath.Join(t.TempDir(), "zed")
	if _, err := rtl.Emit(context.Background(), trainedTiny(t), rtl.Options{Vectors: 4}, zed); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCmd(t, newSynthCmd, "synth", zed, "--route")
	if code != exitUsage || !strings.Contains(errs, "--route: "+zed+" was not emitted with --board icebreaker") {
		t.Errorf("synth --route of a ZedBoard design: exit %d, stderr %q", code, errs)
	}

	hwtest.Require(t, hwtest.Yosys, hwtest.ICE40, hwtest.Make)
	dir := filepath.Join(t.TempDir(), "ice")
	if _, err := rtl.Emit(context.Background(), trainedTiny(t), rtl.Options{Vectors: 4, Board: board.NameIceBreaker}, dir); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, newSynthCmd, "synth", dir)
	if code != 0 || !strings.Contains(out, "iCE40 UP5K: no routed result") {
		t.Errorf("synth before the route: exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
	code, out, errs = runCmd(t, newSynthCmd, "synth", dir, "--route")
	want := regexp.MustCompile(`(?m)^  Fmax +[0-9.]+ MHz +[0-9.]+ MHz +[-+][0-9.]+ % +\(clock 12 MHz: met\)$`)
	if code != 0 || !want.MatchString(out) || !strings.Contains(out, "logic cells") {
		t.Fatalf("synth --route: exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
	code, out, errs = runCmd(t, newSynthCmd, "synth", dir, "--json")
	var js struct {
		ICE40 struct {
			Routed struct{ LogicCells int } `json:"routed"`
		} `json:"ice40"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &js) != nil || js.ICE40.Routed.LogicCells == 0 {
		t.Errorf("synth --json: exit %d, %+v; stderr %s", code, js, errs)
	}
	code, out, errs = runCmd(t, newPowerCmd, "power", dir)
	if code != 0 || !want.MatchString(out) || !strings.Contains(out, "there is no iCE40 power tool here") {
		t.Errorf("power: exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
}
