package rtl

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"text/template"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
	"github.com/hdlgen/hdlgen/rtl/templates"
)

// view is what the templates see: the plan plus a few rendered strings.
type view struct {
	*plan.Plan
	ModelQuoted         string // the model name as an ASCII-safe quoted string
	Data                string // the training data's name, quoted, or ""
	GroupBase           bool   // the core takes the group's first neuron (plan.Layer.GroupBase)
	Axis                bool
	FileRole            string
	LatencyFormulaASCII string
	InBeatW, OutBeatW   int
	// The reloadable readout (readout_ram.v.tmpl): enabled clocks from a group's
	// issue to its readout RAM read, and the alignment of two port declarations.
	RoReadStages          int
	RoWdataPad, RoAddrPad string
	WoutW                 int // readout word width P·L·QW
	// KappaLabel names the network's κ hyperparameter in the header: "kappa",
	// or the type's own name for it (the conj's "D").
	KappaLabel string
}

// readoutView is what the shared core_readout template sees.
type readoutView struct {
	view
	HiddenWire string // the P activations as signed MAC operands
}

// coreView is what the shared core template (core.v.tmpl) sees: the view,
// the network whose parts fill it and its MAC operand wire.
type coreView struct {
	view
	// Net names the network's parts: template "<Net>_<part>" (part).
	Net string
	// HiddenWire is the P activations as signed MAC operands.
	HiddenWire string
}

// Readout is what the core's readout (core_readout) sees.
func (c coreView) Readout() readoutView { return readoutView{c.view, c.HiddenWire} }

var (
	tmplOnce sync.Once
	tmpl     *template.Template
	tmplErr  error
)

// parsed returns the templates, parsed once.
func parsed() (*template.Template, error) {
	tmplOnce.Do(func() {
		funcs := template.FuncMap{
			// pad aligns the comment after a parameter value: value + pad is 7 columns.
			"pad": func(v int) string { return strings.Repeat(" ", max(1, 7-len(strconv.Itoa(v)))) },
			"add": func(a, b int) int { return a + b },
			// conjFeatureW is the conj's feature index width for K features.
			"conjFeatureW": plan.ConjFeatureW,
			// readoutArgs passes a core template's MAC operand wire to the
			// shared core_readout template.
			"readoutArgs": func(v view, hiddenWire string) readoutView { return readoutView{v, hiddenWire} },
			// coreArgs passes a network's core template to the shared one
			// (core.v.tmpl): the network's name and its MAC operand wire.
			"coreArgs": func(v view, net, hiddenWire string) coreView { return coreView{v, net, hiddenWire} },
			// part renders the network's part of the shared core template.
			"part": func(c coreView, name string) (string, error) {
				var b strings.Builder
				err := tmpl.ExecuteTemplate(&b, c.Net+"_"+name, c)
				return b.String(), err
			},
		}
		tmpl, tmplErr = template.New("rtl").Funcs(funcs).Option("missingkey=error").ParseFS(templates.FS, "*.tmpl")
	})
	return tmpl, tmplErr
}

func newView(m *model.Model, pl *plan.Plan, axis bool) view {
	v := view{
		Plan:        pl,
		ModelQuoted: strconv.QuoteToASCII(m.Name),
		GroupBase:   pl.Layer().GroupBase(),
		Axis:        axis,
		InBeatW:     max(1, plan.Clog2(pl.K)),
		OutBeatW:    plan.Clog2(pl.L + 1),
	}
	if d := m.Training.Data; d != "" {
		v.Data = strconv.QuoteToASCII(d)
	}
	v.LatencyFormulaASCII = toASCII(pl.LatencyFormula)
	t, _ := model.TraitsOf(pl.Arch)
	v.KappaLabel = toASCII(t.KappaLabel())
	// The readout RAM is read with b_tag, in the last clock before stage H:
	// the flight stages without H, the MAC product and the lane-sum registers.
	v.RoReadStages = pl.FlightStages - 2 - pl.LaneTree.Stages
	v.WoutW = pl.ROM(plan.ROMWout).Width
	// Port names start in column 23 after "wire ".
	v.RoWdataPad = strings.Repeat(" ", max(0, 22-len(fmt.Sprintf("[%d*Classes*%d-1:0]", pl.P, pl.QW))))
	v.RoAddrPad = strings.Repeat(" ", max(0, 22-len(fmt.Sprintf("[%d-1:0]", pl.GroupW))))
	return v
}

// toASCII replaces the few non-ASCII symbols the plan's texts use.
func toASCII(s string) string {
	r := strings.NewReplacer("·", "*", "−", "-", "κ", "kappa", "⌈", "ceil(", "⌉", ")", "≤", "<=", "≥", ">=")
	return strings.Map(func(c rune) rune {
		if c > 126 || c < 32 {
			return '?'
		}
		return c
	}, r.Replace(s))
}

// render executes one template with data v (a view, or a view with more).
func render(name string, v any) ([]byte, error) {
	t, err := parsed()
	if err != nil {
		return nil, fmt.Errorf("rtl: parse templates: %w", err)
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, name, v); err != nil {
		return nil, fmt.Errorf("rtl: render %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// verilogFiles renders the model-specific modules and returns them with the
// primitives they need, as DIR-relative paths in dependency order. sys is the
// system top's shape and identity, nil without one.
func verilogFiles(m *model.Model, pl *plan.Plan, axis bool, sys *sysSpec) (names []string, files map[string][]byte, err error) {
	files = map[string][]byte{}
	for _, p := range primitivesFor(pl, axis, sys != nil) {
		b, err := templates.FS.ReadFile(p.Source)
		if err != nil {
			return nil, nil, fmt.Errorf("rtl: primitive %s: %w", p.Name, err)
		}
		name := "rtl/" + p.Name
		names = append(names, name)
		files[name] = b
	}
	type gen struct{ tmpl, module, role string }
	gens := []gen{
		{pl.Layer().CoreTemplate(), pl.Prefix + "_core", "the datapath"},
		{"top.v.tmpl", pl.Prefix + "_top", "the stream top"},
	}
	if axis {
		gens = append(gens, gen{"axis.v.tmpl", pl.Prefix + "_axis", "the AXI4-Stream wrapper"})
	}
	for _, g := range gens {
		v := newView(m, pl, axis)
		v.FileRole = g.module + ".v, " + g.role
		b, err := render(g.tmpl, v)
		if err != nil {
			return nil, nil, err
		}
		name := "rtl/" + g.module + ".v"
		names = append(names, name)
		files[name] = b
	}
	if sys != nil {
		v := newView(m, pl, axis)
		module := pl.Prefix + "_system"
		v.FileRole = module + ".v, the Zynq system top (docs/system-interface.md)"
		sv, err := newSysView(v, sys.shape, sys.id)
		if err != nil {
			return nil, nil, err
		}
		b, err := render("system.v.tmpl", sv)
		if err != nil {
			return nil, nil, err
		}
		name := "rtl/" + module + ".v"
		names = append(names, name)
		files[name] = b
	}
	return names, files, nil
}

// sysSpec is a system top to render, and its simulation's results.
type sysSpec struct {
	shape           systemShape
	id              regmap.Identity
	cycles          int
	cyclesPerVector float64
}

// streamTopFiles returns the files of names (verilogFiles' list) that the stream
// top needs: all but the AXI4-Stream wrapper and its primitives, in order.
func streamTopFiles(pl *plan.Plan, names []string) []string {
	need := map[string]bool{"rtl/" + pl.Prefix + "_core.v": true, "rtl/" + pl.Prefix + "_top.v": true}
	for _, p := range primitivesFor(pl, false, false) {
		need["rtl/"+p.Name] = true
	}
	var out []string
	for _, n := range names {
		if need[n] {
			out = append(out, n)
		}
	}
	return out
}

// primitivesFor lists the primitives a design uses, dependencies first: the
// shared ones it needs in the order of templates.Front, its network type's
// own, then the shared ones of templates.Back.
func primitivesFor(pl *plan.Plan, axis, system bool) []plan.Primitive {
	issue := "hdlgen_issue.v"
	if pl.HoldInput {
		issue = "hdlgen_issue_hold.v" // no input register
	}
	mac := "hdlgen_mac.v"
	if pl.RegisterSums {
		mac = "hdlgen_mac_sums.v" // the register after the lane sums
	}
	use := map[string]bool{
		"hdlgen_delay.v": true, "hdlgen_rom.v": true, "hdlgen_addtree.v": true,
		"hdlgen_argmax.v": true, issue: true, "hdlgen_outreg.v": true, mac: true,
	}
	if pl.ReloadableReadout {
		use["hdlgen_ro_ram.v"] = true
	}
	if axis {
		use["hdlgen_sext.v"] = true
		use["hdlgen_axis_hold.v"] = true
		use["hdlgen_axis_in.v"] = true
		use["hdlgen_axis_out.v"] = true
	}
	if system {
		use["hdlgen_sext.v"] = true
		use["hdlgen_axis_hold.v"] = true
		use["hdlgen_axis_frames.v"] = true
		use["hdlgen_axis_fifo.v"] = true
		use["hdlgen_axis_records.v"] = true
		use["hdlgen_axil.v"] = true
	}
	variant := func(name string) plan.Primitive {
		if name == "hdlgen_rom.v" && pl.BlockROMs() {
			return plan.Primitive{Name: name, Source: templates.ROMBlock}
		}
		return plan.Same(name)
	}
	var out []plan.Primitive
	for _, p := range templates.Front {
		if use[p] {
			out = append(out, variant(p))
		}
	}
	out = append(out, pl.Layer().Primitives(pl)...)
	for _, p := range templates.Back {
		if use[p] {
			out = append(out, variant(p))
		}
	}
	return out
}
