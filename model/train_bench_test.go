package model

import (
	"context"
	"testing"

	"github.com/hdlgen/hdlgen/linalg"
)

// benchData is the training-speed case: 10,000 rows, 16 features, 4 classes.
func benchData() Data { return blobs(10000, 16, 4, 1) }

// BenchmarkTrainIntRVFL1500 is the whole training of an intRVFL with N=1500 on
// 10,000×16 (normalise, hidden layer, ridge readout). Compare with the Gram and
// hidden-layer benchmarks below, measured on the same H in the same run:
//
//	go test -run '^$' -bench 'IntRVFL1500' -count 5 ./model/
func BenchmarkTrainIntRVFL1500(b *testing.B) {
	d := benchData()
	cfg := Config{Arch: IntRVFL, N: 1500, Kappa: 3, Lambda: 1, Seed: 1}
	for b.Loop() {
		if _, err := Train(context.Background(), d, cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIntRVFL1500Gram is the Gram matrix HᵀH alone on the same H.
func BenchmarkIntRVFL1500Gram(b *testing.B) {
	d := benchData()
	norm := FitNormalizer(d.X, len(d.Y), 16)
	h := NewIntNet(16, 1500, 3, 1).HiddenMatrix(norm.Apply(d.X, len(d.Y)), len(d.Y))
	g := make([]float64, 1500*1500)
	for b.Loop() {
		linalg.Engine{Threads: 1}.Gram(len(d.Y), 1500, h, 1500, g, 1500)
	}
}

// BenchmarkIntRVFL1500Hidden is the hidden layer (levels, XOR/popcount, clip) alone.
func BenchmarkIntRVFL1500Hidden(b *testing.B) {
	d := benchData()
	norm := FitNormalizer(d.X, len(d.Y), 16)
	xn := norm.Apply(d.X, len(d.Y))
	net := NewIntNet(16, 1500, 3, 1)
	for b.Loop() {
		_ = net.HiddenMatrix(xn, len(d.Y))
	}
}

// BenchmarkUnmarshal reads a stored-W_in intRVFL with N=500 on 16 features
// and 4 classes (57 kB of model.json) with the reader every command and test
// that loads or validates a model goes through; beside it, in the same run,
// the reader's two ways of building the tree: the fast scan it uses on valid
// input and the token-by-token path it keeps for errors:
//
//	go test -run '^$' -bench Unmarshal -count 5 ./model/
func BenchmarkUnmarshal(b *testing.B) {
	m, err := Train(context.Background(), blobs(400, 16, 4, 1), Config{Arch: IntRVFL, N: 500, Kappa: 3, Lambda: 1, Seed: 1, ReadoutBits: 5})
	if err != nil {
		b.Fatal(err)
	}
	data, err := Marshal(m)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := Unmarshal(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tree-fast", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, ok := fastTree(data); !ok {
				b.Fatal("fast path refused a valid model")
			}
		}
	})
	b.Run("tree-tokens", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			d := &decoder{data: data}
			if _, err := d.parseTokens(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
