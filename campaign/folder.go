package campaign

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CheckFolder refuses to run the campaign with seed seed in DIR when DIR
// already holds records of a campaign with another seed: running it would
// replace them one by one. A folder of the same campaign (same seed, any
// number of designs, any --only subset) is resumed.
func CheckFolder(out string, seed uint64) error {
	entries, err := os.ReadDir(filepath.Join(out, "designs"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("campaign: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		r, err := readRecord(filepath.Join(out, "designs", e.Name()))
		if err != nil {
			return err
		}
		if r.Design.Seed != seed {
			return fmt.Errorf("campaign: %s holds the records of the campaign with --seed %d (%s); running --seed %d there would replace them: use another --out",
				out, r.Design.Seed, e.Name(), seed)
		}
	}
	return nil
}
