// Package proc prepares the external programs hdlgen starts (Yosys, make and
// what it runs: Verilator, the C++ compiler, the simulators) so that they
// end with hdlgen, however hdlgen ends:
//
//   - Setup puts the program in its own process group, and a cancelled
//     context (an interrupt) kills the whole group: make, its compilers and
//     the simulation, not only the direct child;
//   - on Linux the group also dies when hdlgen dies without a chance to
//     cancel anything (SIGKILL, an out-of-memory kill). A killed process runs
//     no code, so the group has a leader that outlives it: Setup starts
//     hdlgen's own executable (/proc/self/exe) as a small reaper, which
//     starts the program in its group, passes on its exit status and output
//     streams, and gets the kernel's parent-death signal (prctl
//     PR_SET_PDEATHSIG, SIGTERM); on that signal it kills the whole group,
//     itself included. The program gets SIGKILL as its own parent-death
//     signal, for a reaper killed alone. Before the reaper, the parent-death
//     signal reached the direct child only: a SIGKILL of `hdlgen verify`
//     during a Verilator build left Verilator, make, g++ and cc1plus running
//     (8 processes; TestKilledVerifyLeavesNoProcess in internal/cli, and
//     TestTreeDiesWithParent here with a tree of test processes). The
//     reaper costs about 7 ms per program (20 runs of `hdlgen
//     --hdlgen-internal-reaper /bin/true true` took 0.19 s, 20 of /bin/true
//     0.06 s, on 2026-11-28 under other work).
//
// Limits: a program that leaves the group (setsid, its own process group)
// is not followed; the kernel sends the parent-death signal when the OS
// thread that started the reaper ends, and the Go runtime keeps its threads
// for the life of the process except for a goroutine that exits while locked
// with runtime.LockOSThread, so Setup's commands must not be started from
// such a goroutine. On other systems only the process group and the
// cancellation apply.
package proc
