package protocol

import (
	"strings"
	"testing"
)

// TestReadShard: search merge's reader takes one JSON object, with white
// space around it, and refuses a file with anything after it (issue 36,
// item 9: a second document after the first was ignored).
func TestReadShard(t *testing.T) {
	shard := string(fuzzShards(t)[0])
	for _, tc := range []struct {
		name, doc string
		want      string // "" for accepted, else part of the error
	}{
		{"one object", shard, ""},
		{"white space after it", "\n" + shard + " \n\t\n", ""},
		{"the shard twice", shard + "\n" + shard, "more content after its JSON object"},
		{"an empty object after it", shard + "{}", "more content after its JSON object"},
		{"a number after it", shard + " 1", "more content after its JSON object"},
		{"text after it", shard + "x", "more content after its JSON object"},
		{"an unknown field", strings.Replace(shard, "{", `{"colour":1,`, 1), "unknown field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ReadShard([]byte(tc.doc))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want == "" && r.Grid.Ns[0] != 10:
				t.Fatalf("read N=%v, want the shard's [10]", r.Grid.Ns)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}
