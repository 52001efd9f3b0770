package weights

import (
	"fmt"

	"github.com/hdlgen/hdlgen/designdir"
)

// DirDesign is an emitted design directory as ReadDesign finds it.
type DirDesign struct {
	Design
	// Reloadable reports whether the design was emitted with a reloadable
	// readout (design.json's reloadable_readout).
	Reloadable bool
}

// ReadDesign opens an emitted design directory (designdir.Open: model.json
// and design.json read and checked against each other).
func ReadDesign(dir string) (*DirDesign, error) {
	d, err := designdir.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	if d.Model.Readout == nil {
		return nil, fmt.Errorf("weights: %s has no integer readout: not an emitted design's model", d.File(designdir.ModelFile))
	}
	return &DirDesign{Design: Design{Model: d.Model, JSON: d.ModelJSON, Plan: d.Plan}, Reloadable: d.Options.ReloadableReadout}, nil
}
