package registry

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRegistry(t *testing.T) {
	r := New[int]("test: value")
	if got := r.Alternatives(); got != "none" {
		t.Errorf("empty: %q", got)
	}
	for i, name := range []string{"rvfl8", "intrvfl", "rvfl"} {
		r.Add(name, i)
	}
	if v, ok := r.Get("rvfl"); !ok || v != 2 {
		t.Errorf("Get(rvfl) = %d, %v", v, ok)
	}
	if _, ok := r.Get("cnn"); ok {
		t.Error("Get(cnn) found a value")
	}
	if d := cmp.Diff([]int{1, 2, 0}, r.Values()); d != "" {
		t.Errorf("Values (-want +got):\n%s", d)
	}
	if got := r.Alternatives(); got != "intrvfl, rvfl or rvfl8" {
		t.Errorf("Alternatives = %q", got)
	}
	defer func() {
		if p := recover(); p != "test: value rvfl registered twice" {
			t.Errorf("duplicate: panic %v", p)
		}
	}()
	r.Add("rvfl", 9)
}
