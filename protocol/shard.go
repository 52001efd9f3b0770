package protocol

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

// ShardInfo says where one shard of a search (hdlgen search --shard i/n)
// comes from, so that a merge takes exactly the shards of one search: all n
// of them, each once, scored with the same grid, seed, penalty, solver and
// data.
type ShardInfo struct {
	Index int `json:"index"` // i of i/n
	Count int `json:"count"` // n
	// Ns are the whole grid's values of N (the shard's own are Grid.Ns).
	Ns          []int             `json:"grid_ns"`
	Seed        uint64            `json:"seed"`
	Regularizer model.Regularizer `json:"regularizer"`
	// Data is the SHA-256 of the split the search scored (DataFingerprint).
	Data string `json:"data_sha256"`
}

// DataFingerprint is the SHA-256 of what a search of u scores: every row
// (features as float64 bits, label) of the data file and the rows of the
// search split.
func DataFingerprint(u *dataset.UCIDataset) string {
	h := sha256.New()
	var b [8]byte
	word := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	d := u.Data
	word(uint64(d.M()))
	word(uint64(d.K()))
	for _, x := range d.X {
		word(math.Float64bits(x))
	}
	for _, y := range d.Y {
		word(uint64(y))
	}
	for _, idx := range [][]int{u.Search.Train, u.Search.Test} {
		word(uint64(len(idx)))
		for _, i := range idx {
			word(uint64(i))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ReadShard reads the JSON document one shard of a search printed (search
// merge's reader): exactly one object with no unknown field and nothing but
// white space after it (a second document, a shard pasted twice, is
// refused), whose counts pass Check.
func ReadShard(data []byte) (*SearchResult, error) {
	r := new(SearchResult)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(r); err != nil {
		return nil, fmt.Errorf("not a shard of hdlgen search --shard: %w", err)
	}
	end := dec.InputOffset()
	var extra json.RawMessage
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("not a shard of hdlgen search --shard: more content after its JSON object, which ends at byte %d", end)
	}
	if err := r.Check(); err != nil {
		return nil, err
	}
	return r, nil
}

// Check checks a search result read from a file (a shard or a whole search):
// the counts have the grid's shape (one row per κ, or one for networks
// without κ; one column per N of Grid.Ns; one count per λ) and lie in
// 0…Best.ValRows.
func (r *SearchResult) Check() error {
	rows := len(r.Grid.Kappas)
	if !r.Network.HasKappa() {
		rows = 1
	}
	if rows == 0 || len(r.Grid.Ns) == 0 || len(r.Grid.Lambdas) == 0 {
		return fmt.Errorf("empty grid (%d κ, %d N, %d λ)", len(r.Grid.Kappas), len(r.Grid.Ns), len(r.Grid.Lambdas))
	}
	if r.Best.ValRows < 1 {
		return fmt.Errorf("%d validation rows", r.Best.ValRows)
	}
	if len(r.Correct) != rows {
		return fmt.Errorf("counts for %d κ rows, the grid has %d", len(r.Correct), rows)
	}
	for ki, byN := range r.Correct {
		if len(byN) != len(r.Grid.Ns) {
			return fmt.Errorf("κ row %d has counts for %d values of N, the grid has %d", ki, len(byN), len(r.Grid.Ns))
		}
		for ni, byL := range byN {
			if len(byL) != len(r.Grid.Lambdas) {
				return fmt.Errorf("κ row %d, N=%d has counts for %d values of λ, the grid has %d", ki, r.Grid.Ns[ni], len(byL), len(r.Grid.Lambdas))
			}
			for li, c := range byL {
				if c < 0 || c > r.Best.ValRows {
					return fmt.Errorf("κ row %d, N=%d, λ index %d: %d correct of %d validation rows", ki, r.Grid.Ns[ni], li, c, r.Best.ValRows)
				}
			}
		}
	}
	return nil
}

// checkShards checks that parts are the n shards of one search: each has
// ShardInfo, all agree on n, the whole grid, seed, penalty, solver and data,
// and the indices are 0…n−1, each once.
func checkShards(parts []*SearchResult) error {
	first := parts[0].Shard
	if first == nil {
		return fmt.Errorf("part 1 is not a shard of hdlgen search --shard i/n (it records no shard)")
	}
	seen := make([]bool, first.Count)
	for i, p := range parts {
		s := p.Shard
		switch {
		case s == nil:
			return fmt.Errorf("part %d is not a shard of hdlgen search --shard i/n (it records no shard)", i+1)
		case s.Count != first.Count:
			return fmt.Errorf("part %d is shard %d/%d, part 1 %d/%d: not shards of one search", i+1, s.Index, s.Count, first.Index, first.Count)
		case s.Index < 0 || s.Index >= s.Count:
			return fmt.Errorf("part %d is shard %d/%d: index out of range", i+1, s.Index, s.Count)
		case seen[s.Index]:
			return fmt.Errorf("shard %d/%d is given twice", s.Index, s.Count)
		case !slices.Equal(s.Ns, first.Ns):
			return fmt.Errorf("part %d searched the N grid %v, part 1 %v", i+1, s.Ns, first.Ns)
		case s.Seed != first.Seed:
			return fmt.Errorf("part %d was searched with --seed %d, part 1 with %d", i+1, s.Seed, first.Seed)
		case s.Regularizer != first.Regularizer:
			return fmt.Errorf("part %d was searched with --regularizer %s, part 1 with %s", i+1, s.Regularizer, first.Regularizer)
		case s.Data != first.Data:
			return fmt.Errorf("part %d scored other data than part 1 (data SHA-256 %.12s…, %.12s…)", i+1, s.Data, first.Data)
		}
		seen[s.Index] = true
	}
	var missing []int
	for i, ok := range seen {
		if !ok {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("shards %v of %d are missing: a merge needs all of them", missing, first.Count)
	}
	return nil
}
