package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/model"
)

// Version is the hdlgen release; the build's VCS revision is appended when known.
const Version = "0.1.0"

func newVersionCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the hdlgen version and the model.json format version",
		Example: "  hdlgen version",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			rev := ""
			if bi, ok := debug.ReadBuildInfo(); ok {
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" && len(s.Value) >= 12 {
						rev = " (" + s.Value[:12] + ")"
					}
				}
			}
			fmt.Fprintf(app.Out, "hdlgen %s%s, model.json format %s v%d\n", Version, rev, model.FormatName, model.FormatVersion)
			return nil
		},
	}
}
