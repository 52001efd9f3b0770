package cli

import (
	"bytes"
	"fmt"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// cpuProfileFlag is the persistent flag that writes a CPU profile of the
// command (go tool pprof reads it; docs/speed.md).
const cpuProfileFlag = "cpuprofile"

// addProfileFlag gives root a persistent --cpuprofile FILE: the command that
// runs is profiled from after its flags are parsed until its RunE returns,
// whether it succeeds or fails, and the profile is written to FILE. Nothing
// changes without the flag. The profile is an output like any other: checked
// with the command's other outputs before it runs (so it is never one of its
// inputs or its other outputs) and written through the guard (app.writeFile).
func addProfileFlag(root *cobra.Command, app *App) {
	var path string
	root.PersistentFlags().StringVar(&path, cpuProfileFlag, "", "write a CPU profile of the command to this file (go tool pprof FILE)")
	markOutput(root, cpuProfileFlag, outputFile)
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if path == "" || cmd.RunE == nil {
			return nil
		}
		var buf bytes.Buffer
		if err := pprof.StartCPUProfile(&buf); err != nil {
			return fmt.Errorf("--%s %s: %w", cpuProfileFlag, path, err)
		}
		run := cmd.RunE
		cmd.RunE = func(c *cobra.Command, args []string) error {
			cmd.RunE = run // once: a second Execute of the same tree profiles afresh
			err := run(c, args)
			pprof.StopCPUProfile()
			if werr := app.writeFile("--"+cpuProfileFlag, path, buf.Bytes()); werr != nil && err == nil {
				err = werr
			}
			return err
		}
		return nil
	}
}
