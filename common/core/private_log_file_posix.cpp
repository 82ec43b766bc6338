#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common/core/private_log_file.hpp"

namespace tfwsl {

namespace {

[[noreturn]] void refuse(const std::string& why) { throw std::runtime_error(why); }

std::string open_failure(int error) {
  if (error == ELOOP) return "it is a link: name the file itself, tfwsl does not write its log through a link";
  if (error == ENXIO) return "it is a pipe or a socket, not a regular file";
  return std::strerror(error);
}

}  // namespace

LogFileIdentity open_private_log_file(const std::filesystem::path& path) {
  // O_NOFOLLOW: a link as the last component is refused (ELOOP); O_NONBLOCK: a FIFO with no reader
  // fails at once (ENXIO) instead of blocking the program for ever.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
  if (fd < 0) refuse(open_failure(errno));
  struct stat st {};
  const bool known = ::fstat(fd, &st) == 0;
  ::close(fd);
  if (!known) refuse("its kind cannot be read");
  if (!S_ISREG(st.st_mode)) refuse("it is not a regular file");
  if (st.st_uid != ::geteuid())
    refuse("it belongs to another user (uid " + std::to_string(st.st_uid) + "): name a file of your own");
  return {static_cast<unsigned long long>(st.st_dev), static_cast<unsigned long long>(st.st_ino)};
}

void check_opened_log_file(std::FILE* file, const LogFileIdentity& expected) {
  struct stat st {};
  int fd = file ? ::fileno(file) : -1;
  if (fd < 0 || ::fstat(fd, &st) != 0) refuse("the opened log file cannot be read back");
  if (static_cast<unsigned long long>(st.st_dev) != expected.device ||
      static_cast<unsigned long long>(st.st_ino) != expected.inode)
    refuse("it was replaced while it was being opened (a link put in its place?)");
  if ((st.st_mode & 077) != 0) ::fchmod(fd, 0600);
}

}  // namespace tfwsl
