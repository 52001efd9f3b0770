package dataset

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/internal/hwtest"
)

// uci121 returns the collection folder from HDLGEN_UCI121, or skips.
func uci121(t testing.TB) string {
	dir := hwtest.CollectionDir(t)
	return dir
}

type indexRow struct{ trainRows, testRows, k, l int }

func readIndex(t *testing.T, dir string) (names []string, rows map[string]indexRow) {
	b, err := os.ReadFile(filepath.Join(dir, "INDEX.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	rows = map[string]indexRow{}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i == 0 {
			continue // header
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			t.Fatalf("INDEX.tsv:%d: %d fields", i+1, len(f))
		}
		var n [4]int
		for j := range n {
			if n[j], err = strconv.Atoi(f[j+1]); err != nil {
				t.Fatalf("INDEX.tsv:%d: %v", i+1, err)
			}
		}
		names = append(names, f[0])
		rows[f[0]] = indexRow{n[0], n[1], n[2], n[3]}
	}
	return names, rows
}

// TestCollection loads every dataset of the real collection and checks it
// against INDEX.tsv.
func TestCollection(t *testing.T) {
	dir := uci121(t)
	indexNames, index := readIndex(t, dir)
	names, err := ListUCI(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 121 || strings.Join(names, ",") != strings.Join(indexNames, ",") {
		t.Fatalf("ListUCI gives %d names, INDEX.tsv %d (or in another order)", len(names), len(indexNames))
	}
	start := time.Now()
	missing := 0
	for _, name := range names {
		t0 := time.Now()
		u, err := LoadUCI(dir, name)
		el := time.Since(t0)
		want := index[name]
		if name == "miniboone" {
			var me *MissingDataError
			if !errors.Is(err, ErrDataFileMissing) || !errors.As(err, &me) || me.Dataset != "miniboone" {
				t.Errorf("miniboone: got %v, want a *MissingDataError matching ErrDataFileMissing", err)
			} else {
				t.Logf("miniboone: %v", err)
			}
			missing++
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if name == "connect-4" {
			// Speed is BenchmarkLoadConnect4's business; a test asserts no duration.
			t.Logf("connect-4 (%d×%d) loaded in %v", u.Data.M(), u.Data.K(), el)
		}
		d := u.Data
		if d.K() != want.k || d.L() != want.l || d.M() != want.trainRows {
			t.Errorf("%s: K, L, M = %d, %d, %d; INDEX.tsv says %d, %d, %d", name, d.K(), d.L(), d.M(), want.k, want.l, want.trainRows)
		}
		testRows := 0
		if u.TestData != nil {
			testRows = u.TestData.M()
			if u.TestData.K() != want.k || u.TestData.L() != want.l {
				t.Errorf("%s: test file K, L = %d, %d; want %d, %d", name, u.TestData.K(), u.TestData.L(), want.k, want.l)
			}
		}
		if testRows != want.testRows {
			t.Errorf("%s: %d test-file rows, INDEX.tsv says %d", name, testRows, want.testRows)
		}
		if err := d.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if len(u.Folds) != NumFolds {
			t.Errorf("%s: %d folds", name, len(u.Folds))
		}
		// In this collection each split covers every row exactly once.
		for i, s := range append([]Split{u.Search}, u.Folds...) {
			if n := len(s.Train) + len(s.Test); n != d.M() {
				t.Errorf("%s: split %d covers %d of %d rows", name, i, n, d.M())
			}
		}
	}
	if missing != 1 {
		t.Errorf("%d datasets reported missing, want 1 (miniboone)", missing)
	}
	t.Logf("loaded %d datasets in %v", len(names)-missing, time.Since(start))
}

// BenchmarkLoadConnect4 loads the largest data file of the collection and
// reports the time relative to reading the same files without parsing
// ("x-raw-read": baseline measured in the same run, median of 5).
func BenchmarkLoadConnect4(b *testing.B) {
	dir := uci121(b)
	folder := filepath.Join(dir, "connect-4")
	files := []string{"connect-4_R.dat", SearchFile, KFoldFile}
	var raw []time.Duration
	for range 5 {
		t0 := time.Now()
		for _, f := range files {
			fh, err := os.Open(filepath.Join(folder, f))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, bufio.NewReaderSize(fh, 64<<10)); err != nil {
				b.Fatal(err)
			}
			fh.Close()
		}
		raw = append(raw, time.Since(t0))
	}
	slices.Sort(raw)
	b.ResetTimer()
	for b.Loop() {
		if _, err := LoadUCI(dir, "connect-4"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(raw[2]), "x-raw-read")
}
