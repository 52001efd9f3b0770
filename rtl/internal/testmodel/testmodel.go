package testmodel

import (
	"fmt"
	"math/rand/v2"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
)

// Shape is a network shape.
type Shape struct {
	Arch  model.Arch
	K     int
	N     int
	L     int
	Kappa int // intrvfl only
	Bits  int // intrvfl readout bits (rvfl8: always 8)
}

func (s Shape) String() string {
	if s.Arch == model.RVFL8 {
		return fmt.Sprintf("rvfl8_k%d_n%d_l%d", s.K, s.N, s.L)
	}
	return fmt.Sprintf("intrvfl_k%d_n%d_l%d_kappa%d_b%d", s.K, s.N, s.L, s.Kappa, s.Bits)
}

// Random returns a valid model of the shape with weights drawn from seed. Its
// readout weights are uniform in [−B, B]; the normaliser maps [0, 1] to itself.
func Random(s Shape, name string, seed uint64) *model.Model {
	// Only Uint64 is used, so the weights do not depend on a library method's
	// algorithm (golden files are built from these models).
	pcg := rand.NewPCG(seed, 0x7465737400000001)
	m := &model.Model{Name: name, Arch: s.Arch, Seed: seed,
		Training: model.TrainingInfo{Lambda: 1, Regularizer: model.RegVariance, Rows: 1, Data: "random"},
		Norm:     model.Normalizer{Min: make([]float64, s.K), Max: make([]float64, s.K)}}
	for i := range m.Norm.Max {
		m.Norm.Max[i] = 1
	}
	for c := 0; c < s.L; c++ {
		m.ClassNames = append(m.ClassNames, fmt.Sprintf("c%d", c))
	}
	bits := s.Bits
	switch s.Arch {
	case model.IntRVFL:
		m.Int = model.NewIntNet(s.K, s.N, s.Kappa, seed)
	case model.RVFL8:
		m.Fixed = model.QuantizeFloatNet(model.NewFloatNet(s.K, s.N, seed))
		bits = model.ReadoutBits
	default:
		panic("testmodel: arch " + s.Arch)
	}
	bound := quant.BoundForBits(bits)
	q := make([]int32, s.L*s.N)
	m.Wout = make([]float64, s.L*s.N)
	for i := range q {
		q[i] = int32(pcg.Uint64()%uint64(2*bound+1)) - int32(bound)
		m.Wout[i] = float64(q[i])
	}
	// Make sure the extremes appear (overflow checks want them).
	q[0] = int32(bound)
	if len(q) > 1 {
		q[len(q)-1] = -int32(bound)
	}
	m.Readout = &model.IntReadout{Bits: bits, Bound: bound, Scale: 1, Method: quant.MethodRound, Q: q}
	if err := m.Validate(); err != nil {
		panic(fmt.Sprintf("testmodel: %s: %v", s, err))
	}
	return m
}

// Blobs returns a separable data set: L Gaussian blobs in K dimensions, m rows.
func Blobs(m, k, l int, seed uint64) model.Data {
	rng := rand.New(rand.NewPCG(seed, 1))
	d := model.Data{Name: "blobs", X: make([]float64, m*k), Y: make([]int, m)}
	for c := 0; c < l; c++ {
		d.ClassNames = append(d.ClassNames, string(rune('a'+c)))
	}
	for r := 0; r < m; r++ {
		y := r % l
		d.Y[r] = y
		for i := 0; i < k; i++ {
			d.X[r*k+i] = float64((y+i)%l)*2 + rng.NormFloat64()*0.6
		}
	}
	return d
}

// Trained trains a model of the shape on blobs (so its weights look like real ones).
func Trained(s Shape, name string, seed uint64) (*model.Model, model.Data) {
	d := Blobs(120, s.K, s.L, seed)
	d.Name = name
	cfg := model.Config{Arch: s.Arch, N: s.N, Kappa: s.Kappa, Lambda: 1, Seed: seed}
	if s.Arch == model.IntRVFL {
		cfg.ReadoutBits = s.Bits
	}
	m, err := model.Train(d, cfg)
	if err != nil {
		panic(fmt.Sprintf("testmodel: train %s: %v", s, err))
	}
	return m, d
}
