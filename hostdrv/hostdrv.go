package hostdrv

import (
	"bytes"
	"embed"
	"fmt"
	"strconv"
	"strings"
	"text/template"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
	"github.com/hdlgen/hdlgen/weights"
)

// Dir is the driver's directory inside an emitted design.
const Dir = "driver"

// Design is what the driver needs to know about an emitted system design.
type Design struct {
	Model *model.Model
	Plan  *plan.Plan // the core's plan
	// Identity is what the system's identification registers read (with the
	// system's latency and II, rtl.SystemIdentity); the driver refuses a
	// device that reads anything else.
	Identity regmap.Identity
	Top      string // the system top module, <prefix>_system
	// RTLFiles and MemFiles are DIR-relative; the simulation backend
	// verilates RTLFiles with Top and reads MemFiles.
	RTLFiles, MemFiles []string
	// ClockHz is the PL clock (FCLK_CLK0) the design is built for.
	ClockHz float64
	// SelfTest holds the design's own test vectors and their expected
	// outputs, for the on-board self-test (selftest.go).
	SelfTest SelfTest
}

//go:embed templates
var templateFS embed.FS

var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"join": func(s []string, sep string) string { return strings.Join(s, sep) },
	"cstr": cString,
}).ParseFS(templateFS, "templates/*.tmpl"))

// static are the driver files copied unchanged: DIR-relative path → embedded path.
var static = map[string]string{
	"hdlgen.h":          "templates/hdlgen.h",
	"hdlgen_encode.c":   "templates/hdlgen_encode.c",
	"hdlgen.c":          "templates/hdlgen.c",
	"hdlgen_backend.h":  "templates/hdlgen_backend.h",
	"backend_uio.c":     "templates/backend_uio.c",
	"hdlgen_run.c":      "templates/hdlgen_run.c",
	"hdlgen.py":         "templates/python/hdlgen.py",
	"hdlgen_crc32.c":    "templates/hdlgen_crc32.c",
	"backend_sim.cpp":   "templates/backend_sim.cpp",
	"hdlgen_selftest.c": "templates/hdlgen_selftest.c",
}

// rendered are the driver files rendered from templates: DIR-relative path → template.
var rendered = map[string]string{
	"hdlgen_design.h":        "hdlgen_design.h.tmpl",
	"hdlgen_design.c":        "hdlgen_design.c.tmpl",
	"Makefile":               "Makefile.tmpl",
	"hdlgen-overlay.dts":     "overlay.dts.tmpl",
	"hdlgen_selftest_data.c": "hdlgen_selftest_data.c.tmpl",
}

// Files returns the driver's files as DIR-relative path → content (all under
// driver/).
func Files(d Design) (map[string][]byte, error) {
	v, err := newView(d)
	if err != nil {
		return nil, err
	}
	return driverFiles(v, static, rendered)
}

// driverFiles are the embedded files copied (name → template file) as they
// are and executed (name → template name) rendered with v, each under Dir.
func driverFiles(v *view, copied, executed map[string]string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for name, src := range copied {
		b, err := templateFS.ReadFile(src)
		if err != nil {
			panic("hostdrv: embedded " + src + " missing: " + err.Error())
		}
		out[Dir+"/"+name] = b
	}
	for name, t := range executed {
		var b bytes.Buffer
		if err := templates.ExecuteTemplate(&b, t, v); err != nil {
			return nil, fmt.Errorf("hostdrv: render %s: %w", name, err)
		}
		out[Dir+"/"+name] = b.Bytes()
	}
	return out, nil
}

// view is what the templates see.
type view struct {
	Quoted, Top, Prefix string
	Arch                model.Arch
	ID                  regmap.Identity
	Bound               int
	InputScale          int
	InputMax            int
	EncodeRule          string
	ResultWords         int
	HashBytes           string
	ClassHashBytes      string
	ClockHz             int64
	RegMap              string // regmap.CDefines
	Expect              []Expect
	Min, Max            []string
	ClassNames          []string
	FeatureNames        []string // K C strings, or none (the model names no features)
	LabelName           string   // a C string: the training data's label column, or ""
	RTLFiles, MemFiles  []string
	Overlay             Overlay
	SelfTest            selfTestView
	UART                *uartView // the serial driver's (SerialFiles), nil for the Zynq's
}

func newView(d Design) (*view, error) {
	m, pl, id := d.Model, d.Plan, d.Identity
	if m == nil || pl == nil {
		return nil, fmt.Errorf("hostdrv: design without a model or plan")
	}
	if m.K() != pl.K || m.N() != pl.N || m.L() != pl.L || id.K != pl.K || id.N != pl.N || id.L != pl.L || id.P != pl.P {
		return nil, fmt.Errorf("hostdrv: model %s, plan (K=%d N=%d L=%d P=%d) and identity (K=%d N=%d L=%d P=%d) disagree",
			m, pl.K, pl.N, pl.L, pl.P, id.K, id.N, id.L, id.P)
	}
	if d.Top == "" {
		return nil, fmt.Errorf("hostdrv: design without a system top")
	}
	v := &view{
		Quoted: cString(m.Name), Top: d.Top, Prefix: pl.Prefix, Arch: pl.Arch, ID: id, Bound: pl.ReadoutBound,
		RTLFiles: d.RTLFiles, MemFiles: d.MemFiles, RegMap: regmap.CDefines("HDLGEN"),
	}
	l := pl.Layer()
	if l == nil {
		return nil, fmt.Errorf("hostdrv: architecture %s has no hardware", pl.Arch)
	}
	v.InputScale, v.InputMax, v.EncodeRule = l.InputScale(pl), l.MaxInput(pl), l.EncodeRule()
	v.ResultWords = 1
	if id.Scores {
		if pl.AW > 32 {
			return nil, fmt.Errorf("hostdrv: %d-bit scores do not fit the 32-bit result beats", pl.AW)
		}
		v.ResultWords += pl.L
	}
	var hb []string
	for _, c := range id.ModelHash {
		hb = append(hb, fmt.Sprintf("0x%02x", c))
	}
	v.HashBytes = strings.Join(hb, ", ")
	hb = hb[:0]
	for _, c := range weights.ClassHash(m.ClassNames) {
		hb = append(hb, fmt.Sprintf("0x%02x", c))
	}
	v.ClassHashBytes = strings.Join(hb, ", ")
	if !(d.ClockHz >= 1e6) || d.ClockHz != float64(int64(d.ClockHz)) {
		return nil, fmt.Errorf("hostdrv: clock %v Hz is not a whole number of at least 1 MHz", d.ClockHz)
	}
	v.ClockHz = int64(d.ClockHz)
	var err error
	if v.Expect, err = expectations(id); err != nil {
		return nil, err
	}
	for i := range m.Norm.Min {
		v.Min = append(v.Min, hexDouble(m.Norm.Min[i]))
		v.Max = append(v.Max, hexDouble(m.Norm.Max[i]))
	}
	for _, c := range m.ClassNames {
		v.ClassNames = append(v.ClassNames, cString(c))
	}
	if len(m.FeatureNames) == m.K() {
		for _, f := range m.FeatureNames {
			v.FeatureNames = append(v.FeatureNames, cString(f))
		}
	}
	v.LabelName = cString(m.Training.LabelName)
	v.Overlay = DefaultOverlay
	v.Overlay.ClockHz = v.ClockHz
	if v.SelfTest, err = newSelfTestView(d); err != nil {
		return nil, err
	}
	return v, nil
}

// hexDouble renders a finite double as an exact C99 hexadecimal literal.
func hexDouble(f float64) string {
	return strconv.FormatFloat(f, 'x', -1, 64)
}

// cString quotes s as a C string literal of printable ASCII: other bytes as
// octal escapes (never hex, which would swallow a following hex digit).
func cString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '?':
			b.WriteString(`\?`) // no trigraphs
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\%03o", c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
