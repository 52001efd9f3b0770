package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// typeUsageErrors makes every usage error of cmd's tree a usageError (exit
// code 2) by construction, not by its message: cobra returns its argument
// and required-flag errors as plain errors, so the argument validators are
// wrapped here, the required flags are checked here instead of by cobra, and
// the root takes its positional arguments itself (an unknown command). Flag
// parse errors are typed by the root's flag error function.
func typeUsageErrors(cmd *cobra.Command) {
	switch args := cmd.Args; {
	case args != nil:
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				return usageError{err}
			}
			return nil
		}
	case !cmd.HasParent() && !cmd.Runnable():
		// cobra's rule for a root without Args (its legacyArgs), typed: a
		// positional argument that names no command is an unknown command.
		// Runnable, the root shows its help when given nothing.
		cmd.Args = func(c *cobra.Command, a []string) error {
			if len(a) > 0 {
				return usagef("unknown command %q for %q%s", a[0], c.CommandPath(), suggestions(c, a[0]))
			}
			return nil
		}
		cmd.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	}
	var required []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if _, ok := f.Annotations[cobra.BashCompOneRequiredFlag]; ok {
			delete(f.Annotations, cobra.BashCompOneRequiredFlag)
			required = append(required, f.Name)
		}
	})
	if len(required) > 0 && cmd.RunE == nil {
		panic("cli: " + cmd.CommandPath() + " has required flags and no RunE to check them in")
	}
	if run := cmd.RunE; len(required) > 0 {
		cmd.RunE = func(c *cobra.Command, a []string) error {
			var missing []string
			for _, n := range required {
				if !c.Flags().Changed(n) {
					missing = append(missing, n)
				}
			}
			if len(missing) > 0 {
				return usagef(`required flag(s) "%s" not set`, strings.Join(missing, `", "`))
			}
			return run(c, a)
		}
	}
	for _, c := range cmd.Commands() {
		typeUsageErrors(c)
	}
}

// suggestions is cobra's "Did you mean this?" for an unknown command arg.
func suggestions(c *cobra.Command, arg string) string {
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2
	}
	s := c.SuggestionsFor(arg)
	if len(s) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\nDid you mean this?\n")
	for _, x := range s {
		fmt.Fprintf(&b, "\t%v\n", x)
	}
	return b.String()
}
