package study

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/model"
)

// RunResult is the stored outcome of one (dataset, network) job of the accuracy
// study: the search on the validation split and the final evaluation.
type RunResult struct {
	Dataset     string        `json:"dataset"`
	Network     Network       `json:"network"`
	Fingerprint string        `json:"fingerprint"` // of the grid, seeds and normalisation rule
	K           int           `json:"k"`
	L           int           `json:"l"`
	Rows        int           `json:"rows"` // rows of the (train) data file
	Search      *SearchResult `json:"search"`
	Eval        *EvalResult   `json:"eval"`
	// Regularizer is the ridge penalty the result was trained with; empty in
	// results stored before the field existed, which all used the variance form.
	Regularizer model.Regularizer `json:"regularizer,omitempty"`
}

// Reg returns the ridge penalty of the result, with its default.
func (r *RunResult) Reg() model.Regularizer {
	if r.Regularizer == "" {
		return model.RegVariance
	}
	return r.Regularizer
}

// store keeps one JSON file per finished job under dir, written atomically.
type store struct{ dir string }

func (s store) path(kind string, nw Network, ds string) string {
	return filepath.Join(s.dir, "runs", string(nw), ds+"."+kind+".json")
}

// load reads a stored value; ok is false when the file is absent or was made
// with another fingerprint (a different grid or seeds), in which case the job
// runs again.
func (s store) load(kind string, nw Network, ds, fingerprint string, v any) (ok bool, err error) {
	data, err := os.ReadFile(s.path(kind, nw, ds))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var head struct {
		Fingerprint string `json:"fingerprint"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return false, fmt.Errorf("%s: %w", s.path(kind, nw, ds), err)
	}
	if head.Fingerprint != fingerprint {
		return false, nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("%s: %w", s.path(kind, nw, ds), err)
	}
	return true, nil
}

// loadAny reads a stored value whatever its fingerprint.
func (s store) loadAny(kind string, nw Network, ds string, v any) (ok bool, err error) {
	data, err := os.ReadFile(s.path(kind, nw, ds))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("%s: %w", s.path(kind, nw, ds), err)
	}
	return true, nil
}

func (s store) save(kind string, nw Network, ds string, v any) error {
	p := s.path(kind, nw, ds)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(p, append(data, '\n'), 0o644)
}

// fingerprint identifies the settings a stored result depends on.
func fingerprint(parts ...any) string {
	data, err := json.Marshal(parts)
	if err != nil {
		panic("study: fingerprint: " + err.Error())
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}
