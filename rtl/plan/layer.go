package plan

import (
	"slices"
	"strings"

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
	// Primitives lists the hand-written modules the hidden layer adds to the
	// shared ones (rtl/templates).
	Primitives() []string
	// CoreTemplate names the core's template in rtl/templates.
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

	// derive sets the layer's widths, κ and score bound in pl and returns the
	// hidden reduction tree (Leaves, Depth, Copies).
	derive(pl *Plan, net model.Network) Tree
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

// layers are the network types with RTL, sorted by name; each Layer's file
// registers it from init.
var layers []Layer

// register adds a network type's Layer.
func register(l Layer) {
	if LayerOf(l.Arch()) != nil {
		panic("plan: layer " + string(l.Arch()) + " registered twice")
	}
	layers = append(layers, l)
	slices.SortFunc(layers, func(a, b Layer) int { return strings.Compare(string(a.Arch()), string(b.Arch())) })
}

// LayerOf returns the Layer of arch, or nil when the network type has no RTL.
func LayerOf(arch model.Arch) Layer {
	for _, l := range layers {
		if l.Arch() == arch {
			return l
		}
	}
	return nil
}

// Layer returns the plan's network Layer.
func (pl *Plan) Layer() Layer { return LayerOf(pl.Arch) }
