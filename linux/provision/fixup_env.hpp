#pragma once
// The fix-ups' environment file: variables TensorFlow's install guide has the user set when the
// probe shows the need (XLA_FLAGS=--xla_gpu_cuda_data_dir=... when XLA finds no libdevice), kept
// apart from the profile's environment file (which sources it) so that the profile's file stays
// exactly what the profile says, and read back so that the probes after a fix-up run with it.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/provision/env_file.hpp"  // fixups_env_path: where this file lies
#include "common/provision/provision_plan.hpp"

namespace tfwsl::provision {

// The `export K='V'` lines this agent wrote (anything else is ignored); empty when there is no file.
// Read as whoever runs it: root reads a user's file through read_owned_file and parse_env_exports.
std::map<std::string, std::string> read_env_exports(const std::string& path);
std::map<std::string, std::string> parse_env_exports(const std::string& text);

// What root lets the fix-ups' file give the TensorFlow probe: only the keys this agent itself writes
// there (XLA_FLAGS, by set_xla_data_dir), each only in the one shape it writes
// (xla_data_dir_flag). The file is the user's: any other key (LD_PRELOAD, PATH, PYTHONPATH...) or
// value is dropped, so nothing in it can shape what root starts. `dropped` (when given) gets a line
// per entry left out, naming it.
std::map<std::string, std::string> probe_fixups(const std::map<std::string, std::string>& exports,
                                                std::vector<std::string>* dropped = nullptr);

// XLA_FLAGS's value naming `cuda_dir` ("--xla_gpu_cuda_data_dir=<dir>"), and whether a value is
// exactly that for an absolute folder without control characters.
std::string xla_data_dir_flag(const std::string& cuda_dir);
bool is_xla_data_dir_flag(std::string_view value);

// `export K='V'` lines, V quoted for sh.
std::string env_exports_text(const std::map<std::string, std::string>& vars);

}  // namespace tfwsl::provision
