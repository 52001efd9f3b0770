package timing

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/synth"
)

// ReportFile is the cached timing estimate of an emitted design, DIR-relative.
const ReportFile = "build/synth/timing.json"

// cached is what ReportFile holds: the estimate and what it was made from.
type cached struct {
	Key    string  `json:"key"` // synthesis report key + model
	Report *Report `json:"report"`
}

// modelKey identifies the synthesis run and the delay model.
func modelKey(synthKey string, m *Model) (string, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("timing: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", synthKey)
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ForDir estimates the timing of the emitted design in dir from the netlist
// of its current synthesis report rep (synth.Run or synth.Cached leave the
// netlist in DIR/build/synth/yosys). The estimate is cached in
// DIR/build/synth/timing.json under the report's key and the model.
func ForDir(dir string, rep *synth.Report, m *Model) (*Report, error) {
	if rep == nil {
		panic("timing: ForDir without a synthesis report")
	}
	key, err := modelKey(rep.Key, m)
	if err != nil {
		return nil, err
	}
	cachePath := filepath.Join(dir, filepath.FromSlash(ReportFile))
	if b, err := os.ReadFile(cachePath); err == nil {
		var c cached
		if json.Unmarshal(b, &c) == nil && c.Key == key && c.Report != nil {
			return c.Report, nil
		}
	}
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(synth.NetlistFile)))
	if err != nil {
		return nil, fmt.Errorf("timing: no netlist of %s (run hdlgen synth %s): %w", rep.Top, dir, err)
	}
	nl, err := synth.ParseNetlist(f, rep.Top)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("timing: %s: %w", dir, err)
	}
	r, err := Analyze(nl, m)
	if err != nil {
		return nil, fmt.Errorf("%w (design %s)", err, dir)
	}
	b, err := json.MarshalIndent(cached{Key: key, Report: r}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("timing: %w", err)
	}
	if err := atomicfile.WriteFile(cachePath, append(b, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("timing: %w", err)
	}
	return r, nil
}
