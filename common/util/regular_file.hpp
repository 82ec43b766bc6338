#pragma once
// Reading a file that must be a regular file of bounded size: a .wslconfig, a profile. A path that
// names a device (/dev/zero never ends), a FIFO (opening it would wait for a writer forever), a
// folder or a socket is refused without reading it; a link to a regular file is followed. The size
// is checked on the open file and the read stops one byte past the cap, so a file that grows while
// it is read is refused too, never read whole.
//
// POSIX: open(O_RDONLY | O_NONBLOCK) (a FIFO opens at once instead of blocking), fstat(S_ISREG),
// then the bounded read (regular_file_posix.cpp). Windows: CreateFileW, GetFileType ==
// FILE_TYPE_DISK and no directory attribute, then the bounded read (regular_file_windows.cpp).

#include <cstdint>
#include <filesystem>
#include <string>

namespace tfwsl {

enum class FileReadProblem {
  none,
  missing,      // nothing of that name (or a dangling link)
  not_regular,  // a folder, a device, a FIFO, a socket
  too_large,    // more than the cap (size: the size seen, or cap + 1 when it grew while read)
  unreadable,   // it exists but cannot be opened or read (why: the system's words)
};

struct RegularFileRead {
  FileReadProblem problem = FileReadProblem::none;
  std::string bytes;        // the whole file when problem is none
  std::uintmax_t size = 0;  // the size seen (too_large)
  std::string why;          // the system's error text (unreadable)
  const char* kind =
      "";  // not_regular: "a folder", "a device", "a FIFO (named pipe)", "a socket", "not a regular file"
};

#ifndef _WIN32
// What a file of this st_mode is, in kind's words ("a FIFO (named pipe)"): for a reader with its own
// open that refuses what is not a regular file, by name.
const char* file_kind_of(unsigned mode);
#endif

RegularFileRead read_regular_file(const std::filesystem::path& path, std::uintmax_t max_bytes);

// The problem in words, to follow a file's name in a message: "does not exist", "is a FIFO (named
// pipe), not a regular file", "is 5000000 bytes, more than the 1048576 read", "cannot be read
// (Permission denied)"; empty when there is none.
std::string read_problem_text(const RegularFileRead& read, std::uintmax_t max_bytes);

}  // namespace tfwsl
