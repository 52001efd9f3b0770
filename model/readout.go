package model

import (
	"fmt"

	"github.com/hdlgen/hdlgen/quant"
)

// QuantizeReadout sets the model's integer readout to the symmetric rounding of
// W_out to levels −bound…bound (docs/semantics.md §6). Only the intRVFL takes a
// readout of any width; the rvfl8's readout is 8 bits by definition.
func (m *Model) QuantizeReadout(bound int) error {
	if rule := m.Net.Readout(); !rule.Allowed || rule.Bits != 0 {
		return fmt.Errorf("quantize: only an intrvfl readout can be requantised (this model is %s)", m.Arch())
	}
	r, err := quant.Quantize(m.Wout, m.L(), m.Columns(), bound)
	if err != nil {
		return err
	}
	m.Readout = ReadoutFromQuant(r)
	return nil
}

// Activations returns the integer hidden activations of M normalised rows in the
// form the GA works on (intRVFL only: values in [−κ, κ] must fit int8).
func (m *Model) Activations(xnorm []float64, rows int) (quant.Activations, error) {
	net, ok := m.Net.(*IntNet)
	if !ok {
		return quant.Activations{}, fmt.Errorf("activations: the GA refines intrvfl readouts only (this model is %s)", m.Arch())
	}
	h := make([]int8, rows*m.N())
	lv := make([]int, m.K())
	row := make([]int, m.N())
	for r := 0; r < rows; r++ {
		net.LevelsTo(lv, xnorm[r*m.K():(r+1)*m.K()])
		net.HiddenTo(row, lv)
		for j, v := range row {
			if v < -128 || v > 127 {
				return quant.Activations{}, fmt.Errorf("activations: κ=%d does not fit the GA's int8 activations", net.Kappa)
			}
			h[r*m.N()+j] = int8(v)
		}
	}
	return quant.Activations{Rows: rows, Cols: m.N(), Data: h}, nil
}
