#pragma once
// POSIX only (contained_child_posix.cpp): a child that dies with its parent, and everything it
// started with it.
//
// Between fork and exec the child calls contain_child(): it becomes the leader of a new process
// group and forks once more. The first process stays behind as the group's guardian: it holds no
// file, waits for the program and passes its exit status (or its signal) on as its own; when the
// parent dies (PR_SET_PDEATHSIG, checked against getppid() for a parent already gone) it kills
// the whole group. The second process returns from contain_child() and goes on to exec the
// program, itself bound to die with the guardian. The parent sees the guardian as its child: its
// pid is the group's id, so kill_group() stops the program and whatever it started (a module's
// `sleep`, pip's builds) on a timeout, an interrupt, and after the program's own exit.
//
// Only async-signal-safe calls: the parent may run other threads.

#include <sys/types.h>

namespace tfwsl {

enum class ParentDeath {
  kill_group,  // the agent's own children: nothing of theirs outlives it
  keep,        // apt and dpkg: left to finish (a dpkg killed in its postinst needs repair), still grouped
};

// In the child after fork(): `parent` is what getpid() said in the parent before the fork.
// Returns, in the process that is to exec, the guardian's pid (0 when the second fork failed and
// this process is the group's leader itself); the guardian never returns.
pid_t contain_child(pid_t parent, ParentDeath on_parent_death);

// Binds the calling process to die (SIGKILL) with `parent` again, and ends it if `parent` is gone
// already. A change of uid or gid clears PR_SET_PDEATHSIG: call it after dropping privileges.
void die_with(pid_t parent);

// True once `child` has ended, without reaping it: its pid, which is the group's id, stays
// reserved until waitpid, so kill_group() cannot reach a stranger that took the number.
bool has_ended(pid_t child);

// SIGKILL to the group `leader` leads (what contain_child made); a group already gone is fine.
void kill_group(pid_t leader);

}  // namespace tfwsl
