package randmodel

import (
	"context"
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
	Kappa int // where the network type has κ (the intrvfl)
	Bits  int // readout bits where the type's width is a choice (the intrvfl; rvfl8: always 8)
	// Win is the intrvfl's W_in source (zero value: stored; model.WinPRBS31:
	// the on-chip generator's).
	Win model.WinGen
}

// String names the shape: κ and the readout bits appear where the network
// type has them (model.Traits).
func (s Shape) String() string {
	name := fmt.Sprintf("%s_k%d_n%d_l%d", s.Arch, s.K, s.N, s.L)
	t, _ := model.TraitsOf(s.Arch)
	if t.Kappa {
		name += fmt.Sprintf("_kappa%d", s.Kappa)
	}
	if t.ReadoutBits() {
		name += fmt.Sprintf("_b%d", s.Bits)
	}
	if s.Win != model.WinStored {
		name += "_" + s.Win.Flag()
	}
	return name
}

// Draw returns one readout code in [−bound, bound].
type Draw func(bound int) int32

// New returns a valid model of shape s named name: its hidden layer drawn from
// seed as model.Train draws it, the identity normaliser on [0, 1], and
// readout codes from draw (W_out equal to the codes, scale 1). It panics on a
// shape the model package rejects.
func New(s Shape, name string, seed uint64, draw Draw) *model.Model {
	net, err := model.NewNetwork(s.K, model.Config{Arch: s.Arch, N: s.N, Kappa: s.Kappa, Lambda: 1, Seed: seed, Win: s.Win})
	if err != nil {
		panic(fmt.Sprintf("randmodel: %s: %v", s, err))
	}
	m := &model.Model{Name: name, Net: net, Seed: seed,
		Training: model.TrainingInfo{Lambda: 1, Regularizer: model.RegVariance, Rows: 1, Data: "random"},
		Norm:     model.Normalizer{Min: make([]float64, s.K), Max: make([]float64, s.K)}}
	for i := range m.Norm.Max {
		m.Norm.Max[i] = 1
	}
	for c := 0; c < s.L; c++ {
		m.ClassNames = append(m.ClassNames, fmt.Sprintf("c%d", c))
	}
	bits := s.Bits
	if rule := net.Readout(); rule.Bits != 0 {
		bits = rule.Bits
	}
	bound := quant.BoundForBits(bits)
	q := make([]int32, s.L*s.N)
	m.Wout = make([]float64, s.L*s.N)
	for i := range q {
		q[i] = draw(bound)
		m.Wout[i] = float64(q[i])
	}
	m.Readout = &model.IntReadout{Bits: bits, Bound: bound, Scale: 1, Method: quant.MethodRound, Q: q}
	if err := m.Validate(); err != nil {
		panic(fmt.Sprintf("randmodel: %s: %v", s, err))
	}
	return m
}

// Random returns New's model with codes uniform in [−B, B] drawn from seed, and
// the extremes +B (first code) and −B (last code) present (overflow checks
// want them). Only PCG's Uint64 is used, so the codes do not depend on a
// library method's algorithm (golden files are built from these models).
func Random(s Shape, name string, seed uint64) *model.Model {
	pcg := rand.NewPCG(seed, 0x7465737400000001)
	m := New(s, name, seed, func(bound int) int32 {
		return int32(pcg.Uint64()%uint64(2*bound+1)) - int32(bound)
	})
	// (W_out keeps the drawn values: the golden files were made that way.)
	q, b := m.Readout.Q, int32(m.Readout.Bound)
	q[0] = b
	if len(q) > 1 {
		q[len(q)-1] = -b
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
	cfg := model.Config{Arch: s.Arch, N: s.N, Kappa: s.Kappa, Lambda: 1, Seed: seed, Win: s.Win}
	if t, _ := model.TraitsOf(s.Arch); t.ReadoutBits() {
		cfg.ReadoutBits = s.Bits
	}
	m, err := model.Train(context.Background(), d, cfg)
	if err != nil {
		panic(fmt.Sprintf("randmodel: train %s: %v", s, err))
	}
	return m, d
}
