package plan

import (
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

// layers holds the network types with RTL by name; each Layer's file adds
// its Layer from init.
var layers = registry.New[Layer]("plan: layer")

// register adds a network type's Layer.
func register(l Layer) { layers.Add(string(l.Arch()), l) }

// LayerOf returns the Layer of arch, or nil when the network type has no RTL.
func LayerOf(arch model.Arch) Layer {
	l, _ := layers.Get(string(arch))
	return l
}

// Layer returns the plan's network Layer.
func (pl *Plan) Layer() Layer { return LayerOf(pl.Arch) }
