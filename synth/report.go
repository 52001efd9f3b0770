package synth

import (
	"encoding/json"
	"fmt"
	"github.com/hdlgen/hdlgen/board"
	"io"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/hdlgen/hdlgen/rtl/plan"
)

// Report is the resource report of one synthesis run.
type Report struct {
	Top     string  `json:"top"`
	Yosys   string  `json:"yosys"`   // `yosys -V`
	Command string  `json:"command"` // the command line, run in DIR
	Key     string  `json:"key"`     // cache key (SHA-256)
	Seconds float64 `json:"seconds"` // wall time of the Yosys run that made the report
	Cached  bool    `json:"-"`       // this call did not run Yosys

	// Cells is every cell type of the flattened netlist with its count.
	Cells map[string]int `json:"cells"`
	// LUTBySize[k] counts LUT(k+1) cells, k = 0…5.
	LUTBySize [6]int `json:"lut_by_size"`
	// LUTs is LUT1+…+LUT6; EstimatedLCs is Yosys's estimate of occupied LUT6
	// sites (EstimateLCs: small LUTs share sites as LUT6_2).
	LUTs         int `json:"luts"`
	EstimatedLCs int `json:"estimated_lcs"`
	// FFs counts flip-flops (FDRE, FDSE, FDCE, FDPE and their variants).
	FFs      int `json:"ffs"`
	CARRY4   int `json:"carry4"`
	MUXF7    int `json:"muxf7"`
	MUXF8    int `json:"muxf8"`
	DSP48E1  int `json:"dsp48e1"`
	RAMB18E1 int `json:"ramb18e1"`
	RAMB36E1 int `json:"ramb36e1"`
	// LUTRAM counts distributed-RAM cells (RAM32M, RAM64M, RAM32X1D, …) and SRL
	// shift-register cells (SRL16E, SRLC32E); each occupies one LUT of an M slice
	// (RAM32M/RAM64M occupy four).
	LUTRAM   int `json:"lutram"`
	SRL      int `json:"srl"`
	Inverter int `json:"inv"` // INV cells (Vivado folds them into LUTs)

	// LogicDepth is the longest register-to-register path in logic levels; 0
	// with DepthNote saying why when unknown.
	LogicDepth int    `json:"logic_depth"`
	DepthNote  string `json:"depth_note,omitempty"`

	// ROMs says where each ROM of the design went (Yosys memory_libmap).
	ROMs []ROMMapping `json:"roms"`
}

// ROMMapping is the placement of one ROM.
type ROMMapping struct {
	Memory    string `json:"memory"`     // Yosys memory name, e.g. d_top.u_core.u_win_rom.mem
	Role      string `json:"role"`       // plan role: win, wout, lut ("" if unknown)
	Target    string `json:"target"`     // "bram" or "logic" (LUTs + the read register)
	Via       string `json:"via"`        // Yosys RAM cell type for bram
	BRAMCells int    `json:"bram_cells"` // RAMB18E1/RAMB36E1 cells of this ROM
}

// BRAM36 is the block RAM use in RAMB36 equivalents.
func (r *Report) BRAM36() float64 { return float64(r.RAMB36E1) + 0.5*float64(r.RAMB18E1) }

// Device is an FPGA's resource capacity (board.Device).
type Device = board.Device

// XC7Z020 is the target's device (board.XC7Z020).
var XC7Z020 = board.XC7Z020

// statJSON is the part of `stat -json -tech xilinx` (Yosys 0.23) we read.
type statJSON struct {
	Creator string `json:"creator"`
	Design  *struct {
		NumCells       int            `json:"num_cells"`
		CellsByType    map[string]int `json:"num_cells_by_type"`
		EstimatedNumLC *int           `json:"estimated_num_lc"`
	} `json:"design"`
	Modules map[string]json.RawMessage `json:"modules"`
}

var (
	lutRE    = regexp.MustCompile(`^LUT([1-6])$`)
	ffRE     = regexp.MustCompile(`^FD(RE|SE|CE|PE|CPE|RSE)(_1)?$`)
	lutramRE = regexp.MustCompile(`^RAM(16|32|64|128|256)(M|X\d+[SD])`)
	srlRE    = regexp.MustCompile(`^SRLC?(16|32)E?$`)
)

// ParseStat reads the JSON written by `stat -json -tech xilinx` of a flattened
// design into a Report (cell counts only).
func ParseStat(b []byte) (*Report, error) {
	var s statJSON
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("synth: parse stat -json output: %w (Yosys 0.23 writes invalid JSON for hierarchical designs; the script flattens)", err)
	}
	if s.Design == nil {
		return nil, fmt.Errorf("synth: stat -json output has no \"design\" section")
	}
	if len(s.Modules) != 1 {
		names := make([]string, 0, len(s.Modules))
		for n := range s.Modules {
			names = append(names, n)
		}
		slices.Sort(names)
		return nil, fmt.Errorf("synth: stat -json lists %d modules (%s), want one flattened top", len(s.Modules), strings.Join(names, ", "))
	}
	r := &Report{Cells: map[string]int{}}
	for typ, n := range s.Design.CellsByType {
		if strings.HasPrefix(typ, "$") {
			return nil, fmt.Errorf("synth: unmapped cell type %s (×%d) in the netlist", typ, n)
		}
		r.Cells[typ] = n
		if lutRE.MatchString(typ) {
			r.LUTBySize[typ[3]-'1'] += n
		}
		if count := r.counter(typ); count != nil {
			*count += n
		}
	}
	if s.Design.EstimatedNumLC != nil {
		r.EstimatedLCs = *s.Design.EstimatedNumLC
	} else {
		r.EstimatedLCs = EstimateLCs(r.LUTBySize)
	}
	return r, nil
}

// counter is the field of r that counts cells of type typ, nil for a type
// counted only in Cells.
func (r *Report) counter(typ string) *int {
	exact := map[string]*int{
		"CARRY4": &r.CARRY4, "MUXF7": &r.MUXF7, "MUXF8": &r.MUXF8, "DSP48E1": &r.DSP48E1,
		"RAMB18E1": &r.RAMB18E1, "RAMB36E1": &r.RAMB36E1, "INV": &r.Inverter,
	}
	switch {
	case lutRE.MatchString(typ):
		return &r.LUTs
	case ffRE.MatchString(typ):
		return &r.FFs
	case lutramRE.MatchString(typ):
		return &r.LUTRAM
	case srlRE.MatchString(typ):
		return &r.SRL
	}
	return exact[typ]
}

// EstimateLCs is Yosys's estimate of occupied LUT6 sites (stat -tech xilinx,
// estimated_num_lc) from the LUT1…LUT6 counts: LUT6, LUT5, LUT4 and LUT3 take
// a site each; a LUT1 shares a LUT5's, LUT4's or LUT3's site, a LUT2 a LUT4's
// or LUT3's (as a LUT6_2), in that order; the LUT1/LUT2 left over pair up.
func EstimateLCs(n [6]int) int {
	l1, l2, l3, l4, l5, l6 := n[0], n[1], n[2], n[3], n[4], n[5]
	lc := l6 + l5 + l4 + l3
	pair := func(host, guest *int) {
		c := min(*host, *guest)
		*host -= c
		*guest -= c
	}
	pair(&l5, &l1)
	pair(&l4, &l1)
	pair(&l4, &l2)
	pair(&l3, &l1)
	pair(&l3, &l2)
	return lc + (l2+l1+1)/2
}

var (
	memFFRE   = regexp.MustCompile(`(?m)^using FF mapping for memory (\S+)$`)
	memBRAMRE = regexp.MustCompile(`(?m)^mapping memory (\S+) via (\S+)$`)
)

// ParseMemoryLog reads memory_libmap's decisions from the Yosys log.
func ParseMemoryLog(log []byte, pl *plan.Plan) []ROMMapping {
	var out []ROMMapping
	for _, m := range memFFRE.FindAllSubmatch(log, -1) {
		out = append(out, ROMMapping{Memory: string(m[1]), Target: "logic"})
	}
	for _, m := range memBRAMRE.FindAllSubmatch(log, -1) {
		out = append(out, ROMMapping{Memory: string(m[1]), Target: "bram", Via: strings.TrimPrefix(string(m[2]), `$__XILINX_`)})
	}
	for i := range out {
		out[i].Role = memoryRole(out[i].Memory)
	}
	slices.SortFunc(out, func(a, b ROMMapping) int { return strings.Compare(a.Memory, b.Memory) })
	return out
}

// memoryRole maps a Yosys memory or cell name to the plan's ROM role.
func memoryRole(name string) string {
	switch {
	case strings.Contains(name, "u_win_rom"):
		return plan.ROMWin
	case strings.Contains(name, "u_wout_rom"):
		return plan.ROMWout
	case strings.Contains(name, "u_hidden") && strings.Contains(name, "lut"):
		return plan.ROMLUT
	}
	return ""
}

// WriteText prints the report as a table.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(name string, v any, note string) { fmt.Fprintf(tw, "%s\t%v\t %s\n", name, v, note) }
	fmt.Fprintf(w, "%s — %s\n", r.Top, r.Yosys)
	row("LC (LUT6 sites)", r.EstimatedLCs, "Yosys estimated_num_lc: LUT cells packed two to a site where they fit")
	row("LUT cells", r.LUTs, fmt.Sprintf("LUT1…LUT6: %d %d %d %d %d %d",
		r.LUTBySize[0], r.LUTBySize[1], r.LUTBySize[2], r.LUTBySize[3], r.LUTBySize[4], r.LUTBySize[5]))
	row("FFs", r.FFs, ffDetail(r.Cells))
	row("CARRY4", r.CARRY4, "")
	row("MUXF7 / MUXF8", fmt.Sprintf("%d / %d", r.MUXF7, r.MUXF8), "")
	row("DSP48E1", r.DSP48E1, "")
	row("BRAM (RAMB36 eq.)", fmt.Sprintf("%.1f", r.BRAM36()), fmt.Sprintf("RAMB36E1 %d, RAMB18E1 %d", r.RAMB36E1, r.RAMB18E1))
	row("LUTRAM / SRL", fmt.Sprintf("%d / %d", r.LUTRAM, r.SRL), "")
	if r.LogicDepth > 0 {
		row("logic depth", r.LogicDepth, "levels (LUT, MUXF, CARRY4) register to register")
	} else {
		row("logic depth", "?", r.DepthNote)
	}
	ok, over := XC7Z020.Fits(r.EstimatedLCs, r.FFs, r.DSP48E1, r.BRAM36())
	if ok {
		row("fits "+XC7Z020.Part, "yes", "")
	} else {
		row("fits "+XC7Z020.Part, "NO", over)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, m := range r.ROMs {
		name := m.Role
		if name == "" {
			name = m.Memory
		}
		where := "LUTs (logic ROM)"
		if m.Target == "bram" {
			where = fmt.Sprintf("block RAM (%s, %d cells)", m.Via, m.BRAMCells)
		}
		fmt.Fprintf(w, "ROM %-5s → %s\n", name, where)
	}
	src := fmt.Sprintf("Yosys run: %.1f s", r.Seconds)
	if r.Cached {
		src += " (cached)"
	}
	_, err := fmt.Fprintf(w, "%s\ncommand (in DIR): %s\n", src, r.Command)
	return err
}

func ffDetail(cells map[string]int) string {
	var parts []string
	var names []string
	for t := range cells {
		if ffRE.MatchString(t) {
			names = append(names, t)
		}
	}
	slices.Sort(names)
	for _, t := range names {
		parts = append(parts, fmt.Sprintf("%s %d", t, cells[t]))
	}
	return strings.Join(parts, ", ")
}
