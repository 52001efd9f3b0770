package plan

import (
	"fmt"

	"github.com/hdlgen/hdlgen/internal/registry"
	"github.com/hdlgen/hdlgen/model"
)

// Layer is one network type's hidden layer in hardware: what New, the ROM
// writer and the template renderer need that differs between network types.
// A network with RTL has one Layer (intrvfl.go, rvfl8.go), a simulator
// (rtl/sim), a core template and its hidden-layer primitives (rtl/templates).
type Layer interface {
	// Arch is the network type.
	Arch() model.Arch
	// MaxInput is the largest input element (N for levels, 255 for codes).
	MaxInput(pl *Plan) int
	// InputScale is S of the host's input encoding: a normalised feature x'
	// becomes the element min(MaxInput, floor(x'·S + 0.5)) (N for levels,
	// 256 for codes); EncodeRule names the rule for the driver's comments.
	InputScale(pl *Plan) int
	EncodeRule() string
	// ArchCode is the network type's code in the system top's SHAPE3.ARCH
	// register (docs/system-interface.md): unique, 1…255.
	ArchCode() int
	// Primitives lists the hand-written modules the hidden layer adds to the
	// shared ones (rtl/templates), dependencies first, with the variant of
	// each the plan takes (e.g. block RAM).
	Primitives(pl *Plan) []Primitive
	// CoreTemplate names the core's template in rtl/templates: a whole
	// core, or the parts that core.v.tmpl leaves to the network (a network
	// whose datapath is one hidden primitive, see core.v.tmpl).
	CoreTemplate() string
	// GroupBase reports whether the core takes the issued group's first
	// neuron g·P (issue_base_i).
	GroupBase() bool
	// WinLane writes neuron j's part (it is lane `lane` of its group) of the
	// W_in ROM word with set(lsb, width, value).
	WinLane(pl *Plan, net model.Network, j, lane int, set func(lsb, width int, v int64))
	// ExtraROMWords returns the words of the layer's other ROMs by role
	// (e.g. the sigmoid LUT), in address order.
	ExtraROMWords(pl *Plan, net model.Network) map[string][]int64

	// derive sets the layer's κ and its widths and score bound (widths) in pl
	// and returns the hidden reduction tree (Leaves, Depth, Copies).
	derive(pl *Plan, net model.Network) Tree
	// widths are the layer's widths for dimensions d: the one rule of the
	// plan and of the power model (HiddenWidths).
	widths(d Dims) Widths
	// stages are the register stages from stage A to H.
	stages(pl *Plan) []Stage
	// winROM returns the W_in ROM's word width and purpose.
	winROM(pl *Plan) (width int, purpose string)
	// extraROMs are the layer's other ROMs.
	extraROMs(pl *Plan) []ROM
	// registers counts the register bits from stage A up to the hidden tree's
	// cuts and fills the layer's counts in r.
	registers(pl *Plan, tag int, r *Resources) int
	// hiddenRegW is the width of one lane's registered activation.
	hiddenRegW(pl *Plan) int
}

// Primitive is a hand-written module of a design: Name is its file in the
// design (rtl/Name), Source the file of rtl/templates it is copied from —
// Name itself, or a variant of the module (e.g. with its memory in block RAM).
type Primitive struct{ Name, Source string }

// Same is the primitive copied unchanged.
func Same(name string) Primitive { return Primitive{name, name} }

// layers holds the network types with RTL by name; each Layer's file adds
// its Layer from init.
var layers = registry.New[Layer]("plan: layer")

// register adds a network type's Layer; an architecture code outside 1…255
// or taken by another layer is a programmer error and panics.
func register(l Layer) {
	code := l.ArchCode()
	if code < 1 || code > 255 {
		panic(fmt.Sprintf("plan: layer %s: architecture code %d outside 1…255", l.Arch(), code))
	}
	for _, o := range layers.Values() {
		if o.ArchCode() == code {
			panic(fmt.Sprintf("plan: layers %s and %s share the architecture code %d", o.Arch(), l.Arch(), code))
		}
	}
	layers.Add(string(l.Arch()), l)
}

// Archs returns the network types with RTL, in order.
func Archs() []model.Arch {
	var out []model.Arch
	for _, n := range layers.Names() {
		out = append(out, model.Arch(n))
	}
	return out
}

// Alternatives lists the network types with RTL: "a, b or c".
func Alternatives() string { return layers.Alternatives() }

// LayerOf returns the Layer of arch, or nil when the network type has no RTL.
func LayerOf(arch model.Arch) Layer {
	l, _ := layers.Get(string(arch))
	return l
}

// Layer returns the plan's network Layer.
func (pl *Plan) Layer() Layer { return LayerOf(pl.Arch) }
