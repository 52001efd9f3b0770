package hostdrv

import (
	"fmt"

	"github.com/hdlgen/hdlgen/rtl/regmap"
)

// Expect is an identification register and the value the design reports.
type Expect struct {
	Name    string
	Value   uint32
	Meaning string // the value decoded, for error messages
}

// expectations returns the identification registers of id, in address
// order, with their decoded meaning.
func expectations(id regmap.Identity) ([]Expect, error) {
	vals, err := id.Values()
	if err != nil {
		return nil, fmt.Errorf("hostdrv: %w", err)
	}
	meaning := map[string]string{
		"ID":            `"HDLG"`,
		"VERSION":       fmt.Sprintf("register map version %d", regmap.Version),
		"MODEL_HASH_LO": fmt.Sprintf("model hash %x...", id.ModelHash[:4]),
		"MODEL_HASH_HI": fmt.Sprintf("model hash ...%x", id.ModelHash[4:]),
		"SHAPE0":        fmt.Sprintf("K=%d L=%d", id.K, id.L),
		"SHAPE1":        fmt.Sprintf("N=%d", id.N),
		"SHAPE2":        fmt.Sprintf("P=%d kappa=%d readout bits=%d", id.P, id.Kappa, id.Bits),
		"SHAPE3": fmt.Sprintf("arch=%d LW=%d reloadable=%t scores=%t", id.Arch, id.LW, id.Reloadable,
			id.Scores),
		"TIMING":  fmt.Sprintf("latency=%d II=%d", id.Latency, id.II),
		"FRAMING": fmt.Sprintf("B=%d FPB=%d", id.Beats, id.PerBeat),
		"READOUT": fmt.Sprintf("G=%d C=%d QW=%d", id.Words, id.Chunks, id.QW),
	}
	out := make([]Expect, len(vals))
	for i, v := range vals {
		m, ok := meaning[v.Name]
		if !ok {
			panic("hostdrv: no meaning for identification register " + v.Name)
		}
		out[i] = Expect{Name: v.Name, Value: v.Value, Meaning: m}
	}
	return out, nil
}
