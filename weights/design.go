package weights

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// DirDesign is an emitted design directory as ReadDesign finds it.
type DirDesign struct {
	Design
	// Reloadable reports whether the design was emitted with a reloadable
	// readout (design.json's reloadable_readout).
	Reloadable bool
}

// ReadDesign reads the model.json and design.json of an emitted design
// directory and checks that they belong together.
func ReadDesign(dir string) (*DirDesign, error) {
	mp, dp := filepath.Join(dir, "model.json"), filepath.Join(dir, "design.json")
	mj, err := os.ReadFile(mp)
	if err != nil {
		return nil, fmt.Errorf("weights: design %s: %w", dir, err)
	}
	m, err := model.Unmarshal(mj)
	if err != nil {
		return nil, fmt.Errorf("weights: %s: %w", mp, err)
	}
	dj, err := os.ReadFile(dp)
	if err != nil {
		return nil, fmt.Errorf("weights: design %s: %w", dir, err)
	}
	var pl plan.Plan
	var flags struct {
		Reloadable bool `json:"reloadable_readout"`
	}
	if err := json.Unmarshal(dj, &pl); err != nil {
		return nil, fmt.Errorf("weights: %s: %w", dp, err)
	}
	if err := json.Unmarshal(dj, &flags); err != nil {
		return nil, fmt.Errorf("weights: %s: %w", dp, err)
	}
	if m.Readout == nil {
		return nil, fmt.Errorf("weights: %s has no integer readout: not an emitted design's model", mp)
	}
	if pl.K != m.K() || pl.N != m.N() || pl.L != m.L() || pl.P < 1 || pl.P > pl.N ||
		pl.Groups != (pl.N+pl.P-1)/pl.P || pl.ReadoutBound != m.Readout.Bound || pl.QW != bits.Len(uint(pl.ReadoutBound))+1 {
		return nil, fmt.Errorf("weights: %s (K=%d N=%d L=%d P=%d G=%d QW=%d bound %d) does not describe %s (%s)",
			dp, pl.K, pl.N, pl.L, pl.P, pl.Groups, pl.QW, pl.ReadoutBound, mp, m)
	}
	return &DirDesign{Design: Design{Model: m, JSON: mj, Plan: &pl}, Reloadable: flags.Reloadable}, nil
}
