package model

import (
	"fmt"

	"github.com/hdlgen/hdlgen/quant"
)

// QuantizeReadout sets the model's integer readout to the symmetric rounding of
// W_out to levels −bound…bound (docs/semantics.md §6). Only a network type
// whose readout width is a choice (Traits.ReadoutBits: the intRVFL) takes it;
// the rvfl8's readout is 8 bits by definition.
func (m *Model) QuantizeReadout(bound int) error {
	if rule := m.Net.Readout(); !rule.Allowed || rule.Bits != 0 {
		return fmt.Errorf("quantize: only a readout of the %s can be requantised (this model is %s: %s)",
			Alternatives(ArchsWith(Traits.ReadoutBits)), m.Arch(), rule)
	}
	r, err := quant.Quantize(m.Wout, m.L(), m.Columns(), bound)
	if err != nil {
		return err
	}
	m.Readout = ReadoutFromQuant(r)
	return nil
}

// Activations returns the integer hidden activations of M normalised rows in the
// form the GA works on: a network whose readout width is a choice and whose
// readout is solved on its integer activations (HiddenScale 1), such as the
// intRVFL; the values (in [−κ, κ] for the intRVFL) must fit int8.
func (m *Model) Activations(xnorm []float64, rows int) (quant.Activations, error) {
	net, ok := m.Net.(IntegerNetwork)
	if !ok || !m.Net.Readout().Allowed || m.Net.Readout().Bits != 0 || net.HiddenScale() != 1 {
		return quant.Activations{}, fmt.Errorf("activations: the GA refines integer readouts of any width over integer activations, which the %s has not", m.Arch())
	}
	k, n := m.K(), m.N()
	h := make([]int8, rows*n)
	in := make([]int, k)
	row := make([]int, n)
	for r := 0; r < rows; r++ {
		net.InputsTo(in, xnorm[r*k:(r+1)*k])
		net.HiddenIntsTo(row, in)
		for j, v := range row {
			if v < -128 || v > 127 {
				return quant.Activations{}, fmt.Errorf("activations: hidden activation %d (largest |h| %d) does not fit the GA's int8 activations", v, net.HiddenMax())
			}
			h[r*n+j] = int8(v)
		}
	}
	return quant.Activations{Rows: rows, Cols: n, Data: h}, nil
}
