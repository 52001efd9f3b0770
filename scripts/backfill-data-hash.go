//go:build ignore

// Backfill-data-hash records, in every stored study job under results/, the
// data hash (study.DataHash) of its dataset in the collection given as the
// first argument, as the field "data_sha256" right after "fingerprint" — the
// one-off migration of the stored jobs when the data hash joined the jobs'
// identity (docs/protocol.md, "Stored results and the data they came from").
// It also moves the jobs of results/uci121-published-hyperparameters from the
// fingerprint form of the code that computed them to the current one (the
// fingerprint's parts were nested differently since), after checking that the
// old fingerprint is that form of the current settings.
//
//	go run scripts/backfill-data-hash.go ../shared/uci121
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/protocol"
	"github.com/hdlgen/hdlgen/study"
)

var fpLine = regexp.MustCompile(`(?m)^ "fingerprint": "([0-9a-f]+)",\n`)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/backfill-data-hash.go COLLECTION")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "backfill:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	// The published-hyperparameters study: the fingerprint its jobs carry is
	// Fingerprint("accuracy-v2", grid, seeds, test norm, search seed, fixed) in
	// one call; the code now nests the fixed hyperparameters in a second call.
	fixed, err := protocol.ReadHyperparameters("study/testdata/intrvfl-published-hyperparameters.tsv")
	if err != nil {
		return err
	}
	g, seeds := protocol.PaperGrid(), protocol.DefaultSeeds
	oldFP := jobs.Fingerprint("accuracy-v2", g, seeds, protocol.TestNormOwn, uint64(0), fixed)
	newFP := jobs.Fingerprint(jobs.Fingerprint("accuracy-v2", g, seeds, protocol.TestNormOwn, uint64(0)), fixed)
	hashes := map[string]string{}
	n := 0
	err = filepath.WalkDir("results", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") || !strings.Contains(p, string(filepath.Separator)+"runs"+string(filepath.Separator)) {
			return err
		}
		name := strings.SplitN(filepath.Base(p), ".", 2)[0]
		h, ok := hashes[name]
		if !ok {
			if h, err = study.DataHash(dir, name); err != nil {
				return err
			}
			hashes[name] = h
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(data, []byte(`"data_sha256"`)) {
			return fmt.Errorf("%s already has a data hash", p)
		}
		m := fpLine.FindSubmatchIndex(data)
		if m == nil {
			return fmt.Errorf("%s: no top-level fingerprint line", p)
		}
		fp := string(data[m[2]:m[3]])
		if strings.HasPrefix(p, filepath.Join("results", "uci121-published-hyperparameters")) && strings.HasSuffix(p, ".result.json") {
			if fp != oldFP {
				return fmt.Errorf("%s: fingerprint %s, want %s", p, fp, oldFP)
			}
			fp = newFP
		}
		line := fmt.Sprintf(" \"fingerprint\": %q,\n \"data_sha256\": %q,\n", fp, h)
		out := append(append(append([]byte(nil), data[:m[0]]...), line...), data[m[1]:]...)
		n++
		return os.WriteFile(p, out, 0o644)
	})
	fmt.Printf("%d stored jobs of %d datasets given their data hash\n", n, len(hashes))
	return err
}
