package model

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// treeDiff compares the fast path's tree of text with the token-by-token
// path's: both must accept the same text and build the same tree.
func treeDiff(t *testing.T, text string) (fastOK bool, diff string) {
	t.Helper()
	fast, ok := fastTree([]byte(text))
	d := &decoder{data: []byte(text)}
	slow, err := d.parseTokens()
	if !ok {
		return false, ""
	}
	if err != nil {
		return true, "the fast path accepted what the token path rejects: " + err.Error()
	}
	return true, cmp.Diff(slow, fast, cmp.AllowUnexported(node{}))
}

// TestFastTreeMatchesTokens: on every fixture and on hand-made text with
// escapes, non-ASCII and invalid UTF-8, empty containers, odd spacing and
// number forms, the fast path's tree equals the token path's; on what the
// token path reports (a duplicated key, deep nesting, bad syntax, extra data)
// the fast path gives up so that the token path's error stands.
func TestFastTreeMatchesTokens(t *testing.T) {
	manyKeys := func(dup bool) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range 40 {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"k` + strings.Repeat("x", i) + `": 1`)
		}
		if dup {
			b.WriteString(`, "kxxx": 2`)
		}
		b.WriteString("}")
		return b.String()
	}
	tests := []struct {
		name   string
		text   string
		wantOK bool
	}{
		{"empty object", `{}`, true},
		{"empty containers", ` { "a" : [ ] , "b":{ }, "c":[[],[{}]] } `, true},
		{"numbers", `{"n": [0, -1, 1.5, -2.5e-3, 1E+9, 12345678901234567890, 1e400]}`, true},
		{"literals", `{"t": true, "f": false, "z": null}`, true},
		{"escapes", `{"s": "a\"b\\c\/d\n\t\u00e9\ud83d\ude00", "k\u0041": 1}`, true},
		{"non-ASCII", `{"s": "déjà vu ✓", "ключ": "значение"}`, true},
		{"invalid UTF-8", "{\"s\": \"a\xffb\xc3\"}", true},
		{"white space", "\r\n\t{\n\"a\"\t:\r1\n,\"b\"  :[1 ,2\t]\n}\n\n", true},
		{"top-level array", `[1, "a", [true]]`, true},
		{"top-level number", ` 42 `, true},
		{"many keys", manyKeys(false), true},
		{"duplicated key", `{"a": 1, "b": 2, "a": 3}`, false},
		{"duplicated key among many", manyKeys(true), false},
		{"duplicated nested key", `{"a": {"x": 1, "x": 1}}`, false},
		{"deep", strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), false},
		{"deepest allowed", strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth), true},
		{"syntax error", `{"a": 1,}`, false},
		{"extra data", `{} {}`, false},
		{"truncated", `{"a": [1, 2`, false},
		{"empty", ``, false},
	}
	for _, a := range Archs() {
		tests = append(tests, struct {
			name   string
			text   string
			wantOK bool
		}{"fixture " + string(a), fixture(a, a, a), true})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ok, diff := treeDiff(t, tc.text)
			if ok != tc.wantOK {
				t.Errorf("fast path ok = %v, want %v", ok, tc.wantOK)
			}
			if diff != "" {
				t.Errorf("trees differ (-tokens +fast):\n%s", diff)
			}
		})
	}
}

// FuzzFastTree: on any input the fast path accepts, its tree is the token
// path's (go test runs the seeds; go test -fuzz FuzzFastTree ./model/
// explores further).
func FuzzFastTree(f *testing.F) {
	for _, s := range []string{`{}`, `{"a": [1, -2.5e3, "x\u00e9"], "b": {"c": null}}`, fixture(IntRVFL, IntRVFL, IntRVFL), "{\"\xff\": true}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if _, diff := treeDiff(t, text); diff != "" {
			t.Errorf("trees differ (-tokens +fast):\n%s", diff)
		}
	})
}
