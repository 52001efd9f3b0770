package synth

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

func TestScanVerilog(t *testing.T) {
	tests := []struct {
		name, src string
		want      map[string][]string // module → references
		err       string
	}{
		{"instance", "module a(input x); b #(.W(2)) u_b(.x(x)); endmodule\nmodule b(); endmodule",
			map[string][]string{"a": {"input", "x", "b", "W", "u_b"}, "b": nil}, ""},
		{"comments and strings", "`default_nettype none\n// module c(); hidden\n/* d u(); */\nmodule a();\n" +
			"  localparam F = \"e.mem\"; // f u_f();\n  initial $readmemh(\"g\", m);\nendmodule\n`default_nettype wire\n",
			map[string][]string{"a": {"localparam", "F", "initial", "m"}}, ""},
		{"numbers", "module a(); wire [3:0] w = 4'hab; assign w = {2{1'b0}}; endmodule",
			map[string][]string{"a": {"wire", "w", "assign"}}, ""},
		{"escaped identifier", "module a(); wire \\b ; endmodule", map[string][]string{"a": {"wire"}}, ""},
		{"no endmodule", "module a(); b u();", nil, "no endmodule"},
		{"nested", "module a(); module b(); endmodule", nil, "inside module a"},
		{"stray endmodule", "endmodule", nil, "without module"},
		{"unterminated comment", "module a(); /* endmodule", nil, "unterminated block comment"},
		{"unterminated string", "module a(); x = \"abc\nendmodule", nil, "unterminated string"},
	}
	for _, tc := range tests {
		mods, err := scanVerilog(tc.src)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got := map[string][]string{}
		for _, m := range mods {
			got[m.name] = m.refs
		}
		if d := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

func TestNeededFiles(t *testing.T) {
	files := map[string]string{
		"rtl/a_top.v":  "module a_top(); a_core u(); endmodule\n",
		"rtl/a_core.v": "module a_core(); lib1 u1(); lib1 u2(); endmodule\nmodule a_helper(); lib2 u(); endmodule\n",
		"rtl/lib1.v":   "module lib1(); lib3 u(); endmodule\n",
		"rtl/lib2.v":   "module lib2(); endmodule\n",
		"rtl/lib3.v":   "module lib3(); endmodule\n",
		"rtl/a_axis.v": "module a_axis(); a_top u(); lib2 v(); endmodule\n",
		"rtl/dup.v":    "module lib3(); endmodule\n",
	}
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all := []string{"rtl/a_axis.v", "rtl/a_core.v", "rtl/a_top.v", "rtl/lib1.v", "rtl/lib2.v", "rtl/lib3.v"}
	tests := []struct {
		name, top    string
		files        []string
		needed, left []string
		err          string
	}{
		// a_helper sits in a needed file, but lib2 is only used by it and by
		// the wrapper: a module is followed only when something reachable uses it.
		{"stream top", "a_top", all, []string{"rtl/a_core.v", "rtl/a_top.v", "rtl/lib1.v", "rtl/lib3.v"},
			[]string{"rtl/a_axis.v", "rtl/lib2.v"}, ""},
		{"wrapper", "a_axis", all, all, nil, ""},
		{"leaf", "lib3", all, []string{"rtl/lib3.v"}, []string{"rtl/a_axis.v", "rtl/a_core.v", "rtl/a_top.v", "rtl/lib1.v", "rtl/lib2.v"}, ""},
		{"missing top", "b_top", all, nil, nil, "defines the top module b_top"},
		{"duplicate", "a_top", append([]string{"rtl/dup.v"}, all...), nil, nil, "lib3 is defined in rtl/dup.v and in rtl/lib3.v"},
		{"missing file", "a_top", []string{"rtl/none.v"}, nil, nil, "no such file"},
	}
	for _, tc := range tests {
		needed, left, err := neededFiles(dir, tc.files, tc.top)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if d := cmp.Diff([2][]string{tc.needed, tc.left}, [2][]string{needed, left}, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s: [needed, unused] (-want +got):\n%s", tc.name, d)
		}
	}
}

// TestUnusedFilesLeaveKeyAndCommand: a design directory with an extra,
// unused Verilog file synthesises with the same command and cache key.
func TestUnusedFilesLeaveKeyAndCommand(t *testing.T) {
	d1, err := LoadDesign(fakeDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	d2, err := LoadDesign(fakeDesignWith(t, false))
	if err != nil {
		t.Fatal(err)
	}
	k1, err := Key(d1, "Yosys 0.23", Command("yosys", d1.Top, d1.RTLFiles))
	if err != nil {
		t.Fatal(err)
	}
	k2, err := Key(d2, "Yosys 0.23", Command("yosys", d2.Top, d2.RTLFiles))
	if err != nil {
		t.Fatal(err)
	}
	got := []any{d1.RTLFiles, d1.Unused, Script(d1.Top, d1.RTLFiles), k1}
	want := []any{[]string{"rtl/lib.v", "rtl/t_top.v"}, []string{"rtl/t_axis.v"}, Script(d2.Top, d2.RTLFiles), k2}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("with the unused rtl/t_axis.v: [files, unused, script, key] (-without +with):\n%s", d)
	}
}

// TestAxisFilesDoNotChangeStat synthesises the stream top of one model
// emitted with and without the AXI4-Stream wrapper (whose four files the
// stream top does not use) with the real Yosys: the reports must agree. Before
// synth read only the files the top needs, the wrapper's files moved this
// design's LUT count (deps.go). Two Yosys runs: the full tier's
// (TestNeededFiles and TestUnusedFilesLeaveKeyAndCommand check, in every
// tier, that synth reads only the files the top needs).
func TestAxisFilesDoNotChangeStat(t *testing.T) {
	hwtest.Require(t, hwtest.Yosys, hwtest.Full)
	m := axisTestModel(t)
	var reports []*Report
	for _, axis := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "d")
		rep, err := rtl.Emit(context.Background(), m, rtl.Options{Options: plan.Options{Parallel: 8}, Axis: axis, Vectors: 4}, dir)
		if err != nil {
			t.Fatal(err)
		}
		if axis != (rep.AxisTop != "") {
			t.Fatalf("axis %v: AxisTop %q", axis, rep.AxisTop)
		}
		r, err := Run(context.Background(), dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, r)
	}
	if strings.Contains(reports[1].Command, "_axis") || strings.Contains(reports[1].Command, "sext") {
		t.Errorf("the stream top's synthesis reads the wrapper's files: %s", reports[1].Command)
	}
	// Key, command and timing differ (the core's header comment mentions the
	// wrapper); every count must not.
	ignore := cmpopts.IgnoreFields(Report{}, "Key", "Command", "Seconds", "Cached")
	if d := cmp.Diff(reports[0], reports[1], ignore); d != "" {
		t.Errorf("stream top without (-) and with (+) the AXI4-Stream files:\n%s", d)
	}
}

// axisTestModel is a random-weight intRVFL (K=8, N=128, L=3, κ=3, 5-bit
// readout) whose stream top Yosys maps to different LUT counts when the
// wrapper's files are read too.
func axisTestModel(t *testing.T) *model.Model {
	t.Helper()
	const K, N, L, bits = 8, 128, 3, 5
	m := &model.Model{Name: "axtest", Seed: 1,
		Training: model.TrainingInfo{Lambda: 1, Regularizer: model.RegVariance, Rows: 1, Data: "random"},
		Norm:     model.Normalizer{Min: make([]float64, K), Max: make([]float64, K)},
		Net:      model.NewIntNet(K, N, 3, 1)}
	for i := range m.Norm.Max {
		m.Norm.Max[i] = 1
	}
	m.ClassNames = []string{"a", "b", "c"}
	bound := (1 << (bits - 1)) - 1
	q := make([]int32, L*N)
	m.Wout = make([]float64, L*N)
	x := uint32(1)
	for i := range q {
		x = x*1664525 + 1013904223
		q[i] = int32(int(x>>16)%(2*bound+1) - bound)
		m.Wout[i] = float64(q[i])
	}
	m.Readout = &model.IntReadout{Bits: bits, Bound: bound, Scale: 1, Method: quant.MethodRound, Q: q}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	return m
}
