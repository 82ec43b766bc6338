#pragma once
// The provision state folder (`/var/lib/tfwsl/provision`, or `--state-dir`): root keeps its lock,
// journal, step logs and processes.jsonl there. Root must never be led out of it by a link, nor
// use a folder another user could change under it, so the folder and every folder above it are
// checked before anything is written (the rule OpenSSH applies to authorized_keys' path: owned by
// root or this user, not writable by group or others unless sticky, as /tmp), and every file in it
// is opened without following a link and must be a regular file.

#include <filesystem>
#include <string_view>

#include "common/core/error.hpp"

namespace tfwsl::provision {

// Makes `folder` and `folder/logs` (mode 0750) where missing, then checks the whole path: each
// component owned by root or the effective user; no component a link owned by anyone else; the
// folder itself and logs/ real folders (not links) that no one else can write; the folders above
// them writable by others only with the sticky bit. The error names the component and the fix.
Status prepare_state_folder(const std::filesystem::path& folder);

// open(2) for a file in the state folder: O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK added, 0640 when
// created; a link (ELOOP), a FIFO or anything but a regular file is refused (-1, errno ELOOP or
// EINVAL). The fd is left blocking.
int open_state_file(const std::filesystem::path& file, int flags);

// Appends `line` and a newline in one write (a log line, a journal entry); a file it cannot open
// as above is left alone.
void append_state_line(const std::filesystem::path& file, std::string_view line);

}  // namespace tfwsl::provision
