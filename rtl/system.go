package rtl

import (
	"context"
	"fmt"
	"strings"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
	"github.com/hdlgen/hdlgen/rtl/sim"
)

// System tops (Options.System).
const (
	// SystemZynq is the Zynq system top <prefix>_system of docs/system-interface.md.
	SystemZynq = "zynq"
	// MaxReloadChunks bounds the RO_DATA chunks of one readout word: a
	// reloadable design's word is at most 32·MaxReloadChunks bits (its staging
	// register holds all but the last chunk).
	MaxReloadChunks = 32
	// maxRecordClasses: the class field of a record is 12 bits.
	maxRecordClasses = 1 << regmap.RecordClassBits
	// sysDropW is the width of a record-queue token's drop count.
	sysDropW = 8
	// sysTagW is the width of the batch tag (BATCH.TAG, a record's tag field).
	sysTagW = regmap.RecordTagBits
	// minQueueW is log2 of the smallest record queue.
	minQueueW = 3
)

// Systems lists the values of Options.System.
var Systems = []string{SystemZynq}

// systemShape is what the system top's template and simulation need beyond the
// plan: framing, record queue and timing.
type systemShape struct {
	PerBeat, Beats, BeatW int
	DropW, TagW, QueueW   int
	Scores                bool
	RecordBeats           int // beats of a classified record: L+1 with scores, else 1
	Latency, II           int // last input beat → first record beat; cycles per vector
	Chunks, ChunkW        int // RO_DATA chunks per readout word and the counter width
}

// checkSystem validates the system options against the plan.
func checkSystem(pl *plan.Plan, o *Options) error {
	if o.System == "" {
		if o.ReloadableReadout {
			return fmt.Errorf("rtl: a reloadable readout needs the system top (--system %s)", SystemZynq)
		}
		if o.SystemNoScores {
			return fmt.Errorf("rtl: records without scores need the system top (--system %s)", SystemZynq)
		}
		return nil
	}
	if pl.HoldInput {
		return fmt.Errorf("rtl: --hold-input is for the stream and AXI4-Stream tops; the system top (--system %s) keeps the input register", SystemZynq)
	}
	if o.System != SystemZynq {
		return fmt.Errorf("rtl: unknown system top %q (want %s)", o.System, strings.Join(Systems, ", "))
	}
	switch {
	case pl.AW > plan.MaxAxisScoreW:
		return fmt.Errorf("rtl: the system top sends scores as 32-bit beats, this design has AW=%d", pl.AW)
	case pl.L > maxRecordClasses:
		return fmt.Errorf("rtl: the system top's records hold a 12-bit class, this design has L=%d", pl.L)
	case pl.LW > regmap.BeatPayload:
		return fmt.Errorf("rtl: the system top's beats carry %d payload bits, an input element here has LW=%d", regmap.BeatPayload, pl.LW)
	}
	if c := regmap.Chunks(pl); o.ReloadableReadout && c > MaxReloadChunks {
		return fmt.Errorf("rtl: a reloadable readout word is at most %d bits, this design's is %d (P·L·QW = %d·%d·%d); lower --parallel",
			32*MaxReloadChunks, pl.P*pl.L*pl.QW, pl.P, pl.L, pl.QW)
	}
	return nil
}

// newSystemShape derives the system's framing, queue and timing from the plan.
func newSystemShape(pl *plan.Plan, o *Options) systemShape {
	fpb, beats, _ := regmap.Framing(pl.K, pl.LW)
	s := systemShape{PerBeat: fpb, Beats: beats, BeatW: max(1, plan.Clog2(beats)), DropW: sysDropW, TagW: sysTagW,
		Scores: !o.SystemNoScores, RecordBeats: 1, Latency: pl.Latency, Chunks: regmap.Chunks(pl)}
	if s.Scores {
		s.RecordBeats = pl.L + 1
	}
	s.ChunkW = max(1, plan.Clog2(s.Chunks))
	// A vector every max(II, B, R+1) cycles: the classifier, the input beats,
	// the record's beats and the output register's reload.
	s.II = max(pl.II, beats, s.RecordBeats+1)
	// The queue holds a token for every vector from its acceptance to its
	// record's last beat, about (latency + R)/II of them at full rate, plus
	// room for dropped-vector tokens.
	inFlight := (pl.Latency+s.RecordBeats+s.II-1)/s.II + 2
	s.QueueW = max(minQueueW, plan.Clog2(inFlight))
	return s
}

// SystemIdentity returns what the identification registers of the system
// design of m read (docs/system-interface.md), for the options of an emit.
func SystemIdentity(m *model.Model, pl *plan.Plan, o Options) (regmap.Identity, error) {
	if err := checkSystem(pl, &o); err != nil {
		return regmap.Identity{}, err
	}
	js, err := model.Marshal(m)
	if err != nil {
		return regmap.Identity{}, fmt.Errorf("rtl: %w", err)
	}
	s := newSystemShape(pl, &o)
	return regmap.NewIdentity(pl, js, s.Latency, s.II, o.ReloadableReadout, s.Scores)
}

// sysView is what the system template sees.
type sysView struct {
	view
	systemShape
	AddrW                int
	TopPad               string
	QueueDepth           int
	SysLatency, SysII    int
	WoutWidth, ChunkBits int
	LastWordMask         string // the fields of real neurons in the last readout word, a Verilog literal
	Regs, Bits, Consts   []sysParam
	Writable             []sysParam // registers software may write (the others answer SLVERR)
}

// sysParam is one generated localparam of the system template.
type sysParam struct {
	Param, Pad, Addr string
	LSB              int
	Value, Doc       string
	Reg, CasePad     string
}

// newSysView builds the system template's view; id holds the identification values.
func newSysView(v view, s systemShape, id regmap.Identity) (sysView, error) {
	sv := sysView{view: v, systemShape: s, AddrW: regmap.AddrW, QueueDepth: 1 << s.QueueW,
		SysLatency: s.Latency, SysII: s.II, WoutWidth: v.Plan.ROM(plan.ROMWout).Width, ChunkBits: 32 * s.Chunks}
	sv.LastWordMask = lastWordMask(v.Plan)
	sv.TopPad = strings.Repeat(" ", max(1, len("hdlgen_axis_records  ")-len(v.Prefix+"_top")))
	pad := func(s string, w int) string { return strings.Repeat(" ", max(0, w-len(s))) }
	vals, err := id.Values()
	if err != nil {
		return sysView{}, fmt.Errorf("rtl: %w", err)
	}
	value := map[string]uint32{}
	for _, x := range vals {
		value[x.Name] = x.Value
	}
	const regW, bitW, constW, caseW = 22, 28, 20, 32
	for _, r := range regmap.Registers {
		if !v.ReloadableReadout && strings.HasPrefix(r.Name, "RO_") {
			continue
		}
		p := "REG_" + r.Name
		sv.Regs = append(sv.Regs, sysParam{Param: p, Pad: pad(p, regW), Addr: fmt.Sprintf("%d'h%03x", regmap.AddrW, r.Offset)})
		for _, f := range r.Fields {
			if f.Width != 1 || r.Const || (!v.ReloadableReadout && f.Name == "SWAP") {
				continue
			}
			b := r.Name + "_" + f.Name
			sv.Bits = append(sv.Bits, sysParam{Param: b, Pad: pad(b, bitW), LSB: f.LSB})
		}
		if r.Writable() {
			sv.Writable = append(sv.Writable, sysParam{Reg: p, CasePad: pad(p+"[AddrW-1:2]:", caseW)})
		}
		if r.Const {
			c := "VAL_" + r.Name
			sv.Consts = append(sv.Consts, sysParam{Param: c, Pad: pad(c, constW), Value: fmt.Sprintf("32'h%08x", value[r.Name]),
				Doc: constDoc(r, value[r.Name]), Reg: p, CasePad: pad(p+"[AddrW-1:2]:", caseW)})
		}
	}
	return sv, nil
}

// constDoc decodes an identification value for the localparam's comment.
func constDoc(r regmap.Register, v uint32) string {
	switch r.Name {
	case "ID":
		return `"HDLG"`
	case "VERSION":
		return fmt.Sprintf("register map version %d", v)
	case "MODEL_HASH_LO":
		return "SHA-256(model.json) bytes 0-3"
	case "MODEL_HASH_HI":
		return "SHA-256(model.json) bytes 4-7"
	case "SHAPE1":
		return fmt.Sprintf("N=%d", v)
	}
	parts := make([]string, len(r.Fields))
	for i, f := range r.Fields {
		parts[i] = fmt.Sprintf("%s=%d", f.Name, (v&f.Mask())>>f.LSB)
	}
	return strings.Join(parts, " ")
}

// lastWordMask returns the WORD_W-bit mask, as a Verilog literal, of the fields
// of the last readout word whose neuron exists (lane p < N − (G−1)·P).
func lastWordMask(pl *plan.Plan) string {
	w := pl.ROM(plan.ROMWout).Width
	b := newBitvec(w)
	lanes := pl.N - (pl.Groups-1)*pl.P
	for l := 0; l < pl.L; l++ {
		for p := 0; p < lanes; p++ {
			b.set((l*pl.P+p)*pl.QW, pl.QW, -1)
		}
	}
	return fmt.Sprintf("%d'h%s", w, b.hex())
}

// simulateSystem runs the system test script on the Go model, checks the run
// and returns the vectors/sys_* files and tv_params lines, and the measured
// steady-state cycles per vector.
func simulateSystem(ctx context.Context, m *model.Model, pl *plan.Plan, core *sim.Core, sys *sysSpec, st sim.Stimulus, o *Options) (map[string][]byte, []param, float64, error) {
	sp, err := systemScript(m, pl, sys.id, sys.shape.QueueW, st, o)
	if err != nil {
		return nil, nil, 0, err
	}
	run, err := core.RunSystem(ctx, sim.SystemConfig{ID: sys.id, QueueW: sys.shape.QueueW, DropW: sys.shape.DropW}, sp.script)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("rtl: simulate the system top: %w", err)
	}
	cpv, err := checkSystemRun(m, pl, sys.id, sp, run)
	if err != nil {
		return nil, nil, 0, err
	}
	files, params, err := systemFiles(sys.id.Beats, sp.script, run)
	if err != nil {
		return nil, nil, 0, err
	}
	sys.cycles = run.Cycles
	return files, params, cpv, nil
}
