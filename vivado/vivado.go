package vivado

import (
	"bytes"
	"embed"
	"fmt"
	"regexp"
	"strings"
	"text/template"
)

// TclPath is the script's path inside the design directory.
const TclPath = "vivado/system.tcl"

// Design is what the block design needs to know about an emitted system design.
type Design struct {
	Prefix  string  // the design's module prefix
	Top     string  // the system top module, <prefix>_system
	Board   string  // board name, for comments
	Part    string  // FPGA part
	ClockHz float64 // FCLK_CLK0
	// AddrW is the width of the system's AXI4-Lite byte address.
	AddrW int
	// RTLFiles (the system top and everything under it, dependencies first)
	// and MemFiles are DIR-relative paths.
	RTLFiles, MemFiles []string
}

var (
	identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	partRE  = regexp.MustCompile(`^[a-z0-9-]+$`)
	// pathRE admits paths that need no quoting in Tcl lists.
	pathRE = regexp.MustCompile(`^[A-Za-z0-9_./+-]+$`)
)

// minRange is the smallest address window Vivado assigns on M_AXI_GP0.
const minRange = 4 << 10

func (d Design) validate() error {
	switch {
	case !identRE.MatchString(d.Prefix) || !identRE.MatchString(d.Top):
		return fmt.Errorf("vivado: prefix %q or top %q is not a Verilog identifier", d.Prefix, d.Top)
	case !partRE.MatchString(d.Part):
		return fmt.Errorf("vivado: part %q is not a part name", d.Part)
	case !(d.ClockHz > 0) || d.ClockHz != float64(int64(d.ClockHz)) || int64(d.ClockHz)%1_000_000 != 0:
		return fmt.Errorf("vivado: clock %v Hz is not a whole number of MHz", d.ClockHz)
	case d.AddrW < 2 || d.AddrW > 16 || 1<<d.AddrW > SystemRange:
		return fmt.Errorf("vivado: %d-bit register addresses do not fit the %d-byte window", d.AddrW, SystemRange)
	case len(d.RTLFiles) == 0:
		return fmt.Errorf("vivado: no RTL files")
	}
	for _, f := range append(append([]string{}, d.RTLFiles...), d.MemFiles...) {
		if !pathRE.MatchString(f) || strings.HasPrefix(f, "/") || strings.Contains(f, "..") {
			return fmt.Errorf("vivado: file %q is not a plain DIR-relative path", f)
		}
	}
	return nil
}

//go:embed templates/*.tmpl
var templateFS embed.FS

var templates = template.Must(template.New("").ParseFS(templateFS, "templates/*.tmpl"))

type view struct {
	Design
	Wrapper                                     string
	WrapperText                                 string
	ClockMHz                                    int64
	ClockHz                                     int64
	SystemBase, DMABase, DDRBase                uint32
	SystemRangeText, DMARangeText, DDRRangeText string
	DMALengthBits, DMAMemWidth                  int
	MemDir                                      string
}

// MemDir is where the wrapper reads the ROM files: the project's copy in
// build/vivado/system/mem, relative to a synthesis run's directory
// (build/vivado/system/system.runs/<run>), where Vivado synthesis runs.
const MemDir = "../../mem/"

// Wrapper returns the name of the module the block design references.
func Wrapper(prefix string) string { return prefix + "_zed" }

// Files returns vivado/system.tcl as DIR-relative path → content.
func Files(d Design) (map[string][]byte, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	v := view{Design: d, Wrapper: Wrapper(d.Prefix), ClockHz: int64(d.ClockHz), ClockMHz: int64(d.ClockHz) / 1_000_000,
		SystemBase: SystemBase, DMABase: DMABase, DDRBase: DDRBase,
		SystemRangeText: rangeText(max(minRange, 1<<d.AddrW)), DMARangeText: rangeText(DMARange),
		DDRRangeText: rangeText(DDRRange), DMALengthBits: DMALengthBits, DMAMemWidth: DMAMemWidth, MemDir: MemDir}
	var w bytes.Buffer
	if err := templates.ExecuteTemplate(&w, "wrapper.v.tmpl", v); err != nil {
		return nil, fmt.Errorf("vivado: render the wrapper: %w", err)
	}
	if strings.ContainsAny(w.String(), "{}\\") {
		panic("vivado: the wrapper's text must not contain braces or backslashes (it is a braced Tcl string)")
	}
	v.WrapperText = "{" + w.String() + "}"
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, "system.tcl.tmpl", v); err != nil {
		return nil, fmt.Errorf("vivado: render %s: %w", TclPath, err)
	}
	return map[string][]byte{TclPath: b.Bytes()}, nil
}

// rangeText writes a power-of-two byte count as Vivado's range strings do (4K, 512M).
func rangeText(n int) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dG", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dK", n>>10)
	}
	return fmt.Sprint(n)
}
