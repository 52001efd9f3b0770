package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestCobraUsageErrorsAreTyped: the usage errors cobra makes (an unknown
// command, an argument count, a required flag, an unknown flag) reach
// exitCode as usageError values, whatever their message says.
func TestCobraUsageErrorsAreTyped(t *testing.T) {
	for _, args := range [][]string{
		{"nosuch"},
		{"serch"},
		{"search", "extra"},
		{"search"},                      // required --data
		{"predict", "a.json", "b", "c"}, // accepts 1 arg
		{"search", "merge"},             // requires at least 1 arg
		{"train", "--bogus"},
		{"train", "-Z"},
	} {
		app := &App{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
		root := NewRootCmd(app)
		root.SetArgs(args)
		err := root.Execute()
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: error %v (%T), want a usageError", args, err, err)
		}
	}
}

// TestNoCobraRequiredFlags: no flag keeps cobra's required annotation, whose
// error would be a plain one (typeUsageErrors checks them instead).
func TestNoCobraRequiredFlags(t *testing.T) {
	root := NewRootCmd(&App{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if _, ok := f.Annotations[cobra.BashCompOneRequiredFlag]; ok {
				t.Errorf("%s --%s: cobra's required annotation", c.CommandPath(), f.Name)
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}
