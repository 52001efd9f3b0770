package proc

import (
	"os"
	"os/exec"
	"strings"
	"time"
)

// WaitDelay bounds the wait for a cancelled program's output pipes
// (exec.Cmd.WaitDelay).
const WaitDelay = 5 * time.Second

// Setup prepares cmd, before it starts, as the package documentation says:
// its own process group, the whole group killed when cmd's context ends, and
// on Linux SIGKILL when hdlgen dies. It replaces cmd.SysProcAttr and, for
// a command made by exec.CommandContext, cmd.Cancel.
func Setup(cmd *exec.Cmd) {
	setup(cmd)
	cmd.WaitDelay = WaitDelay
}

// MakeEnv is the environment for a make that hdlgen starts: the caller's,
// without the variables through which a parent make (e.g. `make test`) would
// pass its flags and jobserver.
func MakeEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEFILES", "GNUMAKEFLAGS":
			continue
		}
		env = append(env, kv)
	}
	return env
}
