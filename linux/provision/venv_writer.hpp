#pragma once
// Who creates and fills a profile's venv (python.venv, tensorflow.install, the fix-ups' links):
// the user when it lies inside their home, so that a folder or link they planted there can only
// lead where they may write anyway; root when the profile names a path outside the home that root
// owns and nobody else may write (every existing folder on its real path root's, without group or
// other write), and then the venv is root's and the user only reads it. Anything else (a venv in
// /tmp, in another user's folder, in a folder the user may write outside their home) is refused
// before anything is created.

#include <string>

#include "common/core/error.hpp"
#include "linux/provision/step_process.hpp"

namespace tfwsl::provision {

enum class VenvWriter { user, root };

// invalid_input naming the venv, the folder that makes it unsafe, and the fix.
Result<VenvWriter> venv_writer(const std::string& venv, const DistroUser& user);

// `path` lies strictly inside `home` (both absolute; compared after lexical normalisation).
bool lies_inside(const std::string& path, const std::string& home);

}  // namespace tfwsl::provision
