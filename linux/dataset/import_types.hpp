#pragma once
// What an import is asked to do and what it reports back: the agent's job endpoint and
// `tfwsl-agent dataset import` both render these.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "linux/dataset/progress.hpp"

namespace tfwsl::dataset {

// Many files in flight hide per-file latency (9P on /mnt/c answers each open/stat in about a
// millisecond); the workers wait on I/O, not on the CPU, so this is far above the core count.
inline constexpr unsigned k_default_jobs = 16;
inline constexpr unsigned k_max_jobs = 256;

// The folder inside the target that holds the manifest, the lock and the staging folder.
inline constexpr std::string_view k_state_dir_name = ".tfwsl-import";

class ImportFiles;  // the port of the filesystem calls (import_files.hpp)

// Test seam: called before each call of the engine's port (import_files.hpp) with that method's
// name as the step (write_chunk, copy_range, fsync_file, sync_filesystem, rename_into_place,
// fsync_folder, write_manifest, sync_manifest, unlink_source, remove_source_folder) and the file's
// path relative to the source root ("" for sync_filesystem and the manifest's; the folder for
// fsync_folder); a non-zero return is taken as that errno and the call is not made. One more step,
// "scan", comes before each entry the scan's resume check visits (its return is ignored): the scan's
// reads are no port calls, since they fail per entry and are reported rather than stop the job.
// The test agent (tests/helpers/test_mains) counts these steps through AgentMachine::import_step.
using FaultHook = std::function<int(std::string_view step, const std::string& path)>;

struct ImportOptions {
  std::filesystem::path source;
  std::filesystem::path target;
  bool move = false;    // delete each source file once its copy is durable and verified
  bool verify = false;  // on resume, re-read and hash the files already in the target
  unsigned jobs = k_default_jobs;
  bool skip_space_check = false;  // tests only: reach ENOSPC mid-run instead of at the preflight
  // Base names left out at any depth, files and folders alike (a folder's whole subtree): neither
  // copied, counted nor, with `move`, deleted. Files already in the target stay there. Checked by
  // agent_api::check_exclude_names before they get here.
  std::vector<std::string> exclude;
  FaultHook fault_hook;
  ImportFiles* files = nullptr;  // tests only: a fake port; null is the real POSIX calls
};

class CancelToken {
 public:
  void cancel() { m_cancelled = true; }
  bool cancelled() const { return m_cancelled.load(); }

 private:
  std::atomic<bool> m_cancelled{false};
};

// A per-file problem: the job goes on and reports it at the end.
struct FileProblem {
  std::string path;  // relative to the source root, raw bytes
  std::string kind;  // vanished, unreadable, unsupported, changed, kept-changed, exists-as-other,
                     // target-symlink, kept, error
  std::string message;
};

struct ImportReport {
  ProgressSnapshot totals;
  std::vector<FileProblem> problems;
  std::uint64_t problems_not_listed = 0;   // beyond the list's cap
  std::vector<std::string> unusual_names;  // names Windows cannot show or re-create (reported, copied)
};

// The report on the wire: agent_api::ImportResult (common/agent_api/job_wire).
nlohmann::json to_json(const ImportReport& report);

// A path made safe to print on one line and in JSON (escapes like the manifest's).
std::string display_path(std::string_view raw);

// Whether Windows could not show or re-create this name (trailing dot or space, reserved device
// names, characters Win32 forbids, bytes that are not UTF-8).
bool is_windows_unfriendly_name(std::string_view name);

}  // namespace tfwsl::dataset
