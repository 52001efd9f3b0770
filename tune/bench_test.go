package tune

import (
	"context"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
)

// benchPart times one part of a build's search (the wide grid's 26 λ and 4
// κ, 5-bit rounded readout, identity penalty) with n neurons on the first
// of 4 folds of m rows in l classes: the protocol's search (one
// ridge.Predict per λ, the hidden layer per κ from the data) against
// streamIntRVFL (the hidden inputs once, every λ's predictions in one
// product), which gives the same counts (TestStreamedPartEqualsProtocol).
func benchPart(b *testing.B, m, n, l int, streamed bool) {
	d, err := dataset.ReadCSV(strings.NewReader(blobsCSV(m, 16, l, 0.3, 3)), "bench.csv", dataset.CSVOptions{})
	if err != nil {
		b.Fatal(err)
	}
	task, err := NewTask(d, nil, Validation{Folds: 4})
	if err != nil {
		b.Fatal(err)
	}
	g := protocol.WideGrid()
	so := protocol.SearchOptions{Grid: protocol.Grid{Ns: []int{n}, Lambdas: g.Lambdas, Kappas: g.Kappas},
		Regularizer: model.RegIdentity, Bits: 5}
	s := task.Splits[0]
	for b.Loop() {
		if streamed {
			_, err = task.streamIntRVFL(context.Background(), so, s, n)
		} else {
			_, err = protocol.Search(context.Background(), task.split(s), protocol.IntRVFL, so)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPartProtocol_8000x400x3(b *testing.B)  { benchPart(b, 8000, 400, 3, false) }
func BenchmarkPartStreamed_8000x400x3(b *testing.B)  { benchPart(b, 8000, 400, 3, true) }
func BenchmarkPartProtocol_4000x400x26(b *testing.B) { benchPart(b, 4000, 400, 26, false) }
func BenchmarkPartStreamed_4000x400x26(b *testing.B) { benchPart(b, 4000, 400, 26, true) }
