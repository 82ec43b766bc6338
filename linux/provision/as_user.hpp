#pragma once
// The agent's own file work in a user's paths (the environment file, TensorFlow's library links,
// the venv's parent folders), done AS THAT USER: a child process that has dropped root (the user's
// supplementary groups, gid, then uid, each checked, and root checked gone) before it opens
// anything, so a symlink or a folder the user planted can only ever lead where the user may write.
// The work's Status comes back to the agent through a pipe.

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "linux/provision/step_process.hpp"

namespace tfwsl::provision {

// The user's supplementary groups as initgroups(3) would set them (the primary gid at least).
std::vector<gid_t> supplementary_groups(const DistroUser& user);

// Runs `work` as `user`. Without root, `work` runs in this process when `user` is this process's
// own uid (a user provisioning for themselves) and is refused otherwise; root's own work for uid 0
// runs here too. Fails (internal) when the agent runs other threads: the child of a fork may only
// run arbitrary code when it was forked from a single-threaded process.
Status run_as_user(const DistroUser& user, const std::function<Status()>& work);

}  // namespace tfwsl::provision
