package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// cpuProfileFlag is the persistent flag that writes a CPU profile of the
// command (go tool pprof reads it; docs/speed.md).
const cpuProfileFlag = "cpuprofile"

// addProfileFlag gives root a persistent --cpuprofile FILE: the command that
// runs is profiled from after its flags are parsed until its RunE returns,
// whether it succeeds or fails, and the profile is written to FILE. Nothing
// changes without the flag.
func addProfileFlag(root *cobra.Command) {
	var path string
	root.PersistentFlags().StringVar(&path, cpuProfileFlag, "", "write a CPU profile of the command to this file (go tool pprof FILE)")
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if path == "" || cmd.RunE == nil {
			return nil
		}
		stop, err := startCPUProfile(path)
		if err != nil {
			return err
		}
		run := cmd.RunE
		cmd.RunE = func(c *cobra.Command, args []string) error {
			cmd.RunE = run // once: a second Execute of the same tree profiles afresh
			err := run(c, args)
			if serr := stop(); serr != nil && err == nil {
				err = serr
			}
			return err
		}
		return nil
	}
}

// startCPUProfile starts the CPU profile into a temporary file next to path
// and returns the function that stops it and renames the file to path (as
// every output of hdlgen, it appears whole or not at all).
func startCPUProfile(path string) (stop func() error, err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("--%s: %w", cpuProfileFlag, err)
	}
	if err := f.Chmod(0o644); err != nil {
		_ = f.Close()
		_ = os.Remove(f.Name())
		return nil, fmt.Errorf("--%s: %w", cpuProfileFlag, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		_ = os.Remove(f.Name())
		return nil, fmt.Errorf("--%s %s: %w", cpuProfileFlag, path, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		err := f.Close()
		if err == nil {
			err = os.Rename(f.Name(), path)
		}
		if err != nil {
			_ = os.Remove(f.Name())
			return fmt.Errorf("--%s %s: %w", cpuProfileFlag, path, err)
		}
		return nil
	}, nil
}
