package formal

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/template"
	"time"

	"github.com/hdlgen/hdlgen/internal/proc"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
	"github.com/hdlgen/hdlgen/rtl/templates"
)

// Verdict is the outcome of one proof.
type Verdict int

// Verdicts.
const (
	Proved         Verdict = iota // every assertion holds (to the depth, for a bounded proof)
	Counterexample                // the solver found a run that breaks an assertion
)

func (v Verdict) String() string {
	if v == Proved {
		return "proved"
	}
	return "counterexample"
}

// Result is what one Yosys run established.
type Result struct {
	Verdict Verdict
	// Depth is the induction length (AXILite) or the number of cycles
	// checked from reset (System).
	Depth int
	// CPU is the Yosys process's user and system time.
	CPU time.Duration
	Log string
}

// Mutant is an edit of one RTL file that breaks a property: the proof of a
// mutated design must end in a counterexample.
type Mutant struct {
	Name     string // what the mutant breaks
	File     string // the file edited, e.g. "hdlgen_axil.v" (a design file's base name)
	From, To string // the text replaced (exactly once) and its replacement
}

// Apply returns src with the mutant's edit; it fails unless From occurs
// exactly once.
func (m Mutant) Apply(src []byte) ([]byte, error) {
	if n := bytes.Count(src, []byte(m.From)); n != 1 {
		return nil, fmt.Errorf("formal: mutant %q: %q occurs %d times in %s, want once", m.Name, m.From, n, m.File)
	}
	return bytes.Replace(src, []byte(m.From), []byte(m.To), 1), nil
}

// AXILiteMaxDepth bounds the k-induction of the AXI4-Lite proof.
const AXILiteMaxDepth = 8

// AXILiteMutants break the AXI4-Lite slave's properties, one each.
var AXILiteMutants = []Mutant{
	{"B dropped without BREADY (hold)", "hdlgen_axil.v",
		"      end else if (s_axil_bready) begin\n        bvalid_q <= 1'b0;",
		"      end else begin\n        bvalid_q <= 1'b0;"},
	{"R data resampled while held (hold)", "hdlgen_axil.v",
		"    if (ar_take) begin\n      rdata_q <= rd_ok_i ? rd_data_i : 32'd0;",
		"    if (s_axil_arvalid) begin\n      rdata_q <= rd_ok_i ? rd_data_i : 32'd0;"},
	{"AW taken while one is held (one response per request)", "hdlgen_axil.v",
		"wire aw_take  = s_axil_awvalid && !aw_full_q;", "wire aw_take  = s_axil_awvalid;"},
	{"WSTRB ignored (write only with every strobe)", "hdlgen_axil.v",
		"wire write_ok = wr_ok_i && (wstrb_q == STRB_ALL);", "wire write_ok = wr_ok_i;"},
	{"SLVERR never answered (response)", "hdlgen_axil.v",
		"      bresp_q <= write_ok ? RESP_OKAY : RESP_SLVERR;", "      bresp_q <= RESP_OKAY;"},
	{"an unmapped read returns data (read)", "hdlgen_axil.v",
		"      rdata_q <= rd_ok_i ? rd_data_i : 32'd0;", "      rdata_q <= rd_data_i;"},
}

// AXILite proves the AXI4-Lite slave's properties by k-induction (up to
// AXILiteMaxDepth), with mut applied to the primitive when not nil, working
// in dir.
func AXILite(ctx context.Context, dir string, mut *Mutant) (*Result, error) {
	src, err := templates.FS.ReadFile("hdlgen_axil.v")
	if err != nil {
		return nil, fmt.Errorf("formal: %w", err)
	}
	if mut != nil {
		if src, err = mut.Apply(src); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "hdlgen_axil.v"), src, 0o644); err != nil {
		return nil, fmt.Errorf("formal: %w", err)
	}
	script := fmt.Sprintf(`read_verilog -formal -DHDLGEN_FORMAL_AXIL hdlgen_axil.v
prep -top hdlgen_axil
sat -tempinduct -prove-asserts -set-assumes -set-init-zero -seq 1 -maxsteps %d
`, AXILiteMaxDepth)
	return run(ctx, dir, "axil.ys", script)
}

// Proof modes of the system top: the stream proof (the output's hold rule
// and the flush, with CTRL writes) and the framing proof (the reference model,
// the batch tag, no loss and the counters, with CTRL and BATCH writes).
const (
	Stream  = "stream"
	Framing = "framing"
)

// Depths of the system proofs, in cycles from reset: what fits the test
// suite's budget (ABC's bmc3 grows about 2.5 times per cycle on the framing
// model with writes; docs/system-interface.md states both).
var Depths = map[string]int{Stream: 28, Framing: 10}

// SystemMutants break the system top's properties, one each, by proof mode;
// From/To apply to the emitted design's files (File is a base name,
// "*_system.v" the top).
var SystemMutants = map[string][]Mutant{
	Stream: {
		{"records advance without TREADY (hold)", "hdlgen_axis_records.v",
			"wire xfer  = valid && m_axis_tready;", "wire xfer  = valid;"},
		{"records survive a flush (flush)", "*_system.v",
			"  ) u_records (\n    .clk_i          (aclk),\n    .rst_ni         (dp_rst_n),",
			"  ) u_records (\n    .clk_i          (aclk),\n    .rst_ni         (aresetn),"},
		{"the record queue survives a flush (flush)", "*_system.v",
			"    .clk_i  (aclk),\n    .rst_ni (dp_rst_n),\n    .push_i (tok_push),",
			"    .clk_i  (aclk),\n    .rst_ni (aresetn),\n    .push_i (tok_push),"},
	},
	Framing: {
		{"a short vector classified (framing)", "hdlgen_axis_frames.v",
			"wire             good      = cur && !cur_bad && eov && at_end;", "wire             good      = cur && !cur_bad && eov;"},
		{"seq not restarted after TLAST (framing)", "hdlgen_axis_records.v",
			"seq_q <= last ? {SEQ_W{1'b0}} : seq_q + 1'b1;", "seq_q <= seq_q + 1'b1;"},
		{"TLAST never sent (framing)", "hdlgen_axis_records.v",
			"wire last  = t_last && tok_end;", "wire last  = 1'b0;"},
		{"stray beats not counted (counters)", "hdlgen_axis_frames.v",
			"assign ev_stray_o    = beat && !cur;", "assign ev_stray_o    = 1'b0;"},
		{"records carry tag 0 (tag)", "*_system.v",
			".data_i ({tag_q, tok[TOK_VECTOR] && bank_q, tok}),", ".data_i ({{TAG_W{1'b0}}, tok[TOK_VECTOR] && bank_q, tok}),"},
		{"a marker record sent twice (no duplicate)", "hdlgen_axis_records.v",
			"                  k_marker || (k_result && rec_end);", "                  (k_result && rec_end);"},
		{"a marker record never offered (no loss)", "hdlgen_axis_records.v",
			"wire valid = tok_valid_i && (k_drop || k_marker || (k_result && res_valid_i));",
			"wire valid = tok_valid_i && (k_drop || (k_result && res_valid_i));"},
	},
}

//go:embed templates/system_props.v.tmpl
var propsFS embed.FS

var propsTmpl = template.Must(template.ParseFS(propsFS, "templates/system_props.v.tmpl"))

// SystemDesign is an emitted system design directory the System proof reads.
type SystemDesign struct {
	Dir      string     // the design directory (hdlgen emit -o DIR)
	Plan     *plan.Plan // its plan
	Top      string     // its system top, <prefix>_system
	RTLFiles []string   // DIR-relative, dependencies first
	// Scores: classified records carry the L scores.
	Scores bool
}

// propsView is what the harness template sees.
type propsView struct {
	Top, MemDir, Mode                        string
	Framing                                  bool
	Beats, RecordBeats, L, PosW              int
	RegCtrl, RegStatus, RegDropped, RegStray uint32
	RegBatch                                 uint32
	BitClear, BitFlush, BitBusy              int
	WaitClass, WaitOther                     int // the no-loss bounds, cycles
}

// System checks the system top's properties of a proof mode (Stream or
// Framing) to depth cycles from reset, with mut applied to the design's RTL
// when not nil, working in dir: Yosys writes the harness and the design as an
// AIGER circuit (assumptions as constraints), ABC's bmc3 checks it.
func System(ctx context.Context, d SystemDesign, mode string, depth int, dir string, mut *Mutant) (*Result, error) {
	if depth < 2 {
		return nil, fmt.Errorf("formal: depth %d: want at least 2 cycles", depth)
	}
	if mode != Stream && mode != Framing {
		return nil, fmt.Errorf("formal: unknown proof mode %q", mode)
	}
	_, beats, ok := regmap.Framing(d.Plan.K, d.Plan.LW)
	if !ok {
		return nil, fmt.Errorf("formal: the design's elements do not fit a beat")
	}
	// The ROMs read mem/*.mem relative to the working directory: the design's.
	if err := os.Symlink(filepath.Join(d.Dir, "mem"), filepath.Join(dir, "mem")); err != nil {
		return nil, fmt.Errorf("formal: %w", err)
	}
	v := propsView{Top: d.Top, MemDir: "mem/", Mode: mode, Framing: mode == Framing,
		Beats: beats, RecordBeats: 1, L: d.Plan.L,
		PosW: max(1, plan.Clog2(beats)), RegCtrl: regmap.Offset("CTRL"), RegStatus: regmap.Offset("STATUS"),
		RegDropped: regmap.Offset("COUNT_DROPPED"), RegStray: regmap.Offset("COUNT_STRAY"),
		BitClear: regmap.FieldOf("CTRL", "CLEAR").LSB, BitFlush: regmap.FieldOf("CTRL", "FLUSH").LSB,
		BitBusy: regmap.FieldOf("STATUS", "BUSY").LSB, RegBatch: regmap.Offset("BATCH")}
	if d.Scores {
		v.RecordBeats = d.Plan.L + 1
	}
	// The no-loss bounds: a classified record the classifier's latency and the
	// output register; the others the record queue's two cycles.
	v.WaitClass, v.WaitOther = d.Plan.Latency+1, 2
	var props bytes.Buffer
	if err := propsTmpl.Execute(&props, v); err != nil {
		return nil, fmt.Errorf("formal: render the harness: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "props.v"), props.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("formal: %w", err)
	}
	var reads []string
	applied := false
	for _, f := range d.RTLFiles {
		src, err := os.ReadFile(filepath.Join(d.Dir, f))
		if err != nil {
			return nil, fmt.Errorf("formal: %w", err)
		}
		base := filepath.Base(f)
		if mut != nil && (mut.File == base || mut.File == "*_system.v" && base == d.Top+".v") {
			if src, err = mut.Apply(src); err != nil {
				return nil, err
			}
			applied = true
		}
		if err := os.WriteFile(filepath.Join(dir, base), src, 0o644); err != nil {
			return nil, fmt.Errorf("formal: %w", err)
		}
		reads = append(reads, "read_verilog "+base)
	}
	if mut != nil && !applied {
		return nil, fmt.Errorf("formal: mutant %q: the design has no file %s", mut.Name, mut.File)
	}
	// The AIGER flow of SymbiYosys's abc engine: assumptions become
	// constraints (chformal -early), every flip-flop a plain one with its
	// initial value 0 (-zinit; the harness resets the design in cycle 0).
	script := fmt.Sprintf(`%s
read_verilog -formal props.v
prep -top hdlgen_formal_system
flatten
async2sync
chformal -assume -early
memory_map
opt -full
techmap
opt -fast
dffunmap
abc -g AND -fast
opt_clean
write_aiger -I -B -zinit design.aig
`, strings.Join(reads, "\n"))
	if _, err := yosys(ctx, dir, "system.ys", script); err != nil {
		return nil, err
	}
	return bmc(ctx, dir, depth)
}

// bmc runs ABC's bmc3 on dir/design.aig for depth frames.
func bmc(ctx context.Context, dir string, depth int) (*Result, error) {
	cmd := exec.CommandContext(ctx, "yosys-abc", "-c", fmt.Sprintf("read_aiger design.aig; fold; strash; bmc3 -F %d", depth))
	cmd.Dir = dir
	proc.Setup(cmd)
	out, err := cmd.CombinedOutput()
	res := &Result{Log: string(out), Depth: depth}
	if cmd.ProcessState != nil {
		res.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	switch log := string(out); {
	case err != nil:
		return res, fmt.Errorf("formal: yosys-abc bmc3: %v\n%s", err, lastLines(log, 20))
	case strings.Contains(log, fmt.Sprintf("No output asserted in %d frames", depth)):
		res.Verdict = Proved
	case strings.Contains(log, "was asserted in frame"):
		res.Verdict = Counterexample
	default:
		return res, fmt.Errorf("formal: yosys-abc bmc3: no verdict for %d frames\n%s", depth, lastLines(log, 20))
	}
	return res, nil
}

// yosys runs a Yosys script in dir.
func yosys(ctx context.Context, dir, name, script string) (string, error) {
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o644); err != nil {
		return "", fmt.Errorf("formal: %w", err)
	}
	cmd := exec.CommandContext(ctx, "yosys", "-q", "-l", "yosys.log", name)
	cmd.Dir = dir
	proc.Setup(cmd)
	out, err := cmd.CombinedOutput()
	logb, _ := os.ReadFile(filepath.Join(dir, "yosys.log"))
	if err != nil {
		return string(logb), fmt.Errorf("formal: yosys %s: %v\n%s", name, err, lastLines(string(out)+string(logb), 20))
	}
	return string(logb), nil
}

// run executes a Yosys script in dir and reads the verdict of its sat
// command from the log.
func run(ctx context.Context, dir, name, script string) (*Result, error) {
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o644); err != nil {
		return nil, fmt.Errorf("formal: %w", err)
	}
	cmd := exec.CommandContext(ctx, "yosys", "-q", "-l", "yosys.log", name)
	cmd.Dir = dir
	proc.Setup(cmd)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	logb, _ := os.ReadFile(filepath.Join(dir, "yosys.log"))
	res := &Result{Log: string(logb)}
	if cmd.ProcessState != nil {
		res.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	log := res.Log
	switch {
	case strings.Contains(log, "Induction step proven: SUCCESS!"):
		res.Verdict = Proved
		res.Depth = strings.Count(log, "** Trying induction with length")
	case strings.Contains(log, "SAT proof finished - no model found: SUCCESS!"):
		res.Verdict = Proved
	case strings.Contains(log, "model found for base case: FAIL!"), strings.Contains(log, "SAT proof finished - model found: FAIL!"):
		res.Verdict = Counterexample
	case strings.Contains(log, "Reached maximum number of time steps"):
		return res, fmt.Errorf("formal: %s: the induction did not close within %d steps", name, AXILiteMaxDepth)
	default:
		if err == nil {
			err = errors.New("no verdict in the log")
		}
		return res, fmt.Errorf("formal: yosys %s: %v\n%s", name, err, lastLines(stderr.String()+log, 20))
	}
	// A failed assertion makes Yosys exit non-zero; any other failure is an error.
	if err != nil && res.Verdict == Proved {
		return res, fmt.Errorf("formal: yosys %s: %v\n%s", name, err, lastLines(stderr.String(), 20))
	}
	return res, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
