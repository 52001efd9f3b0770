package testbench

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"github.com/hdlgen/hdlgen/board"

	"github.com/hdlgen/hdlgen/synth/script"
)

// Defaults used when a Design leaves the field at its zero value.
const (
	DefaultPart          = board.Part          // Zynq-7020 on the ZedBoard
	DefaultClockPeriodNS = board.ClockPeriodNS // the ZedBoard's 100 MHz oscillator
)

// Paths inside DIR shared with other packages (the board constraints are
// constraints.XDCPath).
const (
	MakefilePath = "Makefile"
	TclPath      = "vivado/build.tcl"
	VectorsDir   = "vectors"
	BuildDir     = "build"
)

// Design describes an emitted design directory: what the testbenches, the
// Makefile and the Vivado flow need to know about it.
type Design struct {
	Prefix    string // model prefix (docs/rtl-interface.md §1), e.g. "iris"
	StreamTop string // stream top module, e.g. "iris_top"
	AxisTop   string // AXI4-Stream wrapper module, "" when none was emitted
	SystemTop string // Zynq system top module, "" when none was emitted

	// RTLFiles and MemFiles are DIR-relative paths with forward slashes, e.g.
	// "rtl/hdlgen_popcount.v" and "mem/w_in.mem". The RTL reads the .mem files
	// by these relative paths, so simulators and tools run with DIR as the
	// working directory.
	RTLFiles []string
	MemFiles []string
	// StreamRTLFiles are the RTL files the stream top needs (RTLFiles without
	// the AXI4-Stream wrapper's), in the same order; synthesis of the stream top
	// reads only these, because unused modules change the order in which Yosys
	// maps the design and so its LUT count. Empty means RTLFiles.
	StreamRTLFiles []string

	Part          string  // FPGA part; "" means DefaultPart
	ClockPeriodNS float64 // target clock period; 0 means DefaultClockPeriodNS
}

// HasAxis reports whether the design has an AXI4-Stream wrapper.
func (d Design) HasAxis() bool { return d.AxisTop != "" }

// HasSystem reports whether the design has a Zynq system top
// (docs/system-interface.md).
func (d Design) HasSystem() bool { return d.SystemTop != "" }

// withDefaults returns d with the zero-valued optional fields filled in.
func (d Design) withDefaults() Design {
	if d.Part == "" {
		d.Part = DefaultPart
	}
	if d.ClockPeriodNS == 0 {
		d.ClockPeriodNS = DefaultClockPeriodNS
	}
	if len(d.StreamRTLFiles) == 0 {
		d.StreamRTLFiles = d.RTLFiles
	}
	return d
}

var (
	identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]*$`)
	partRE  = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	// A path that is safe in a Makefile, a shell command and Tcl without quoting.
	pathRE = regexp.MustCompile(`^[A-Za-z0-9_./+-]+$`)
)

// Validate checks d and returns an error naming the first bad field.
func (d Design) Validate() error {
	d = d.withDefaults()
	if !identRE.MatchString(d.Prefix) {
		return fmt.Errorf("testbench: prefix %q is not a Verilog identifier", d.Prefix)
	}
	if !identRE.MatchString(d.StreamTop) {
		return fmt.Errorf("testbench: stream top %q is not a Verilog identifier", d.StreamTop)
	}
	if d.AxisTop != "" && !identRE.MatchString(d.AxisTop) {
		return fmt.Errorf("testbench: AXIS top %q is not a Verilog identifier", d.AxisTop)
	}
	if d.AxisTop == d.StreamTop {
		return fmt.Errorf("testbench: AXIS top and stream top are both %q", d.StreamTop)
	}
	if d.SystemTop != "" && !identRE.MatchString(d.SystemTop) {
		return fmt.Errorf("testbench: system top %q is not a Verilog identifier", d.SystemTop)
	}
	if d.SystemTop != "" && (d.SystemTop == d.StreamTop || d.SystemTop == d.AxisTop) {
		return fmt.Errorf("testbench: system top %q is also another top", d.SystemTop)
	}
	if len(d.RTLFiles) == 0 {
		return errors.New("testbench: no RTL files")
	}
	seen := map[string]bool{}
	for _, list := range []struct {
		what  string
		files []string
		ext   string
	}{{"RTL file", d.RTLFiles, ".v"}, {"mem file", d.MemFiles, ""}} {
		for _, f := range list.files {
			if err := checkRelPath(f); err != nil {
				return fmt.Errorf("testbench: %s: %w", list.what, err)
			}
			if list.ext != "" && path.Ext(f) != list.ext {
				return fmt.Errorf("testbench: %s %q does not end in %s", list.what, f, list.ext)
			}
			if seen[f] {
				return fmt.Errorf("testbench: %s %q listed twice", list.what, f)
			}
			seen[f] = true
		}
	}
	if !partRE.MatchString(d.Part) {
		return fmt.Errorf("testbench: part %q is not a part name", d.Part)
	}
	if math.IsNaN(d.ClockPeriodNS) || d.ClockPeriodNS <= 0 || d.ClockPeriodNS > 1e6 {
		return fmt.Errorf("testbench: clock period %v ns out of range", d.ClockPeriodNS)
	}
	return nil
}

func checkRelPath(p string) error {
	switch {
	case !pathRE.MatchString(p):
		return fmt.Errorf("path %q: only letters, digits and _ . / + - are allowed", p)
	case path.IsAbs(p) || path.Clean(p) != p || p == "." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("path %q is not a clean path inside DIR", p)
	case strings.HasPrefix(p, BuildDir+"/") || strings.HasPrefix(p, VectorsDir+"/"):
		return fmt.Errorf("path %q is inside %s/, which is reserved", p, path.Dir(p))
	}
	return nil
}

//go:embed tb/tb_common.h tb/tb_stream.cpp tb/tb_stream.v tb/tb_axis.cpp tb/tb_axis.v tb/gate/RAMB18E1.v tb/gate/RAMB36E1.v
//go:embed tb/system_harness.h tb/tb_system.cpp tb/tb_system.v
var tbFS embed.FS

//go:embed templates/*.tmpl
var templateFS embed.FS

var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"join":   func(s []string) string { return strings.Join(s, " ") },
	"period": func(ns float64) string { return fmt.Sprintf("%.3f", ns) },
	"mhz":    func(ns float64) string { return fmt.Sprintf("%g", math.Round(1e6/ns)/1e3) },
	// yosysScript is `hdlgen synth`'s script: it reads the files sorted.
	"yosysScript": func(top string, files []string) string {
		f := slices.Clone(files)
		slices.Sort(f)
		return script.Script(top, f)
	},
}).ParseFS(templateFS, "templates/*.tmpl"))

// Testbench sources: DIR-relative path → embedded file. The AXIS ones are
// written only for designs with a wrapper, the system ones only for designs
// with a system top.
var (
	streamSources = []string{"tb/tb_common.h", "tb/tb_stream.cpp", "tb/tb_stream.v",
		"tb/gate/RAMB18E1.v", "tb/gate/RAMB36E1.v"}
	axisSources   = []string{"tb/tb_axis.cpp", "tb/tb_axis.v"}
	systemSources = []string{"tb/system_harness.h", "tb/tb_system.cpp", "tb/tb_system.v"}
)

// Files returns the testbench sources, the Makefile and the Vivado flow of
// design d as DIR-relative path → content:
//
//	tb/tb_common.h, tb/tb_stream.cpp, tb/tb_stream.v   always
//	tb/gate/RAMB18E1.v, tb/gate/RAMB36E1.v              always (gate-level block-RAM models)
//	tb/tb_axis.cpp, tb/tb_axis.v                       with an AXIS wrapper
//	tb/system_harness.h, tb/tb_system.cpp, tb/tb_system.v  with a system top
//	Makefile
//	vivado/build.tcl, vivado/stream_ooc.xdc            always
//	vivado/axis_ooc.xdc                                with an AXIS wrapper
//
// The board constraints (constraints.XDCPath) come from package constraints.
func Files(d Design) (map[string][]byte, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	d = d.withDefaults()
	out := map[string][]byte{}
	sources := append([]string{}, streamSources...)
	if d.HasAxis() {
		sources = append(sources, axisSources...)
	}
	if d.HasSystem() {
		sources = append(sources, systemSources...)
	}
	for _, p := range sources {
		b, err := tbFS.ReadFile(p)
		if err != nil {
			panic("testbench: embedded " + p + " missing: " + err.Error())
		}
		out[p] = b
	}
	type oocData struct {
		Design
		Top, Clock string
	}
	render := []struct {
		path, tmpl string
		data       any
		want       bool
	}{
		{MakefilePath, "Makefile.tmpl", d, true},
		{TclPath, "build.tcl.tmpl", d, true},
		{"vivado/stream_ooc.xdc", "ooc.xdc.tmpl", oocData{d, d.StreamTop, "clk_i"}, true},
		{"vivado/axis_ooc.xdc", "ooc.xdc.tmpl", oocData{d, d.AxisTop, "aclk"}, d.HasAxis()},
	}
	for _, r := range render {
		if !r.want {
			continue
		}
		var buf bytes.Buffer
		if err := templates.ExecuteTemplate(&buf, r.tmpl, r.data); err != nil {
			return nil, fmt.Errorf("testbench: rendering %s: %w", r.path, err)
		}
		out[r.path] = buf.Bytes()
	}
	return out, nil
}
