#include "common/dataset/tree_scan.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "common/dataset/posix_files.hpp"

namespace tfwsl::dataset {
namespace {

struct ScanTask {
  bool list = false;  // list a directory, else stat an entry
  std::string path;
};

std::string join(const std::string& parent, const char* name) {
  return parent.empty() ? std::string(name) : parent + '/' + name;
}

class TreeScanner {
 public:
  TreeScanner(int root_fd, const CancelToken& cancel, ProgressTracker& progress)
      : m_root_fd(root_fd), m_cancel(cancel), m_progress(progress) {}

  ScanResult run(unsigned workers) {
    push({ScanTask{true, ""}});
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < std::max(1u, workers); ++i) threads.emplace_back([this] { work(); });
    for (auto& t : threads) t.join();
    std::sort(m_result.directories.begin(), m_result.directories.end());
    std::sort(m_result.items.begin(), m_result.items.end(),
              [](const ScannedItem& a, const ScannedItem& b) { return a.path < b.path; });
    return std::move(m_result);
  }

 private:
  void push(std::vector<ScanTask> tasks) {
    if (tasks.empty()) return;
    std::lock_guard lock(m_mutex);
    for (auto& t : tasks) m_queue.push_back(std::move(t));
    m_ready.notify_all();
  }

  void work() {
    while (true) {
      ScanTask task;
      {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [this] { return !m_queue.empty() || m_busy == 0; });
        if (m_queue.empty()) return;
        task = std::move(m_queue.front());
        m_queue.pop_front();
        ++m_busy;
      }
      if (!m_cancel.cancelled()) {
        if (task.list)
          list_directory(task.path);
        else
          stat_entry(task.path);
      }
      std::lock_guard lock(m_mutex);
      --m_busy;
      if (m_busy == 0 && m_queue.empty()) m_ready.notify_all();
    }
  }

  void problem(const std::string& path, int error, const char* doing) {
    std::string kind = error == ENOENT ? "vanished" : (error == EACCES || error == EPERM) ? "unreadable" : "error";
    std::lock_guard lock(m_result_mutex);
    m_result.problems.push_back({path, kind, std::string(doing) + ": " + errno_text(error)});
  }

  void list_directory(const std::string& path) {
    int fd = path.empty() ? ::openat(m_root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                          : open_beneath(m_root_fd, path, O_RDONLY | O_DIRECTORY);
    if (fd < 0) return problem(path.empty() ? "." : path, errno, "cannot open the folder");
    DIR* dir = ::fdopendir(fd);
    if (dir == nullptr) {
      int error = errno;
      ::close(fd);
      return problem(path, error, "cannot list the folder");
    }
    std::vector<ScanTask> tasks;
    std::vector<std::string> subdirs;
    errno = 0;
    while (dirent* entry = ::readdir(dir)) {
      const char* name = entry->d_name;
      if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
      if (path.empty() && std::string_view(name) == k_state_dir_name) continue;
      std::string child = join(path, name);
      switch (entry->d_type) {
        case DT_DIR:
          subdirs.push_back(child);
          tasks.push_back({true, std::move(child)});
          break;
        case DT_REG:
        case DT_LNK:
        case DT_UNKNOWN:
          tasks.push_back({false, std::move(child)});
          break;
        default: {
          std::lock_guard lock(m_result_mutex);
          m_result.problems.push_back({child, "unsupported", "not a file, folder or symlink (device, FIFO or socket): skipped"});
        }
      }
    }
    int error = errno;
    ::closedir(dir);
    if (error != 0) problem(path, error, "listing the folder failed part way");
    {
      std::lock_guard lock(m_result_mutex);
      for (auto& d : subdirs) m_result.directories.push_back(std::move(d));
    }
    push(std::move(tasks));
  }

  void stat_entry(const std::string& path) {
    struct stat st {};
    if (::fstatat(m_root_fd, path.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return problem(path, errno, "cannot stat");
    if (S_ISDIR(st.st_mode)) {  // DT_UNKNOWN on filesystems that do not fill d_type
      {
        std::lock_guard lock(m_result_mutex);
        m_result.directories.push_back(path);
      }
      return push({ScanTask{true, path}});
    }
    if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
      std::lock_guard lock(m_result_mutex);
      m_result.problems.push_back({path, "unsupported", "not a file, folder or symlink (device, FIFO or socket): skipped"});
      return;
    }
    ScannedItem item;
    item.path = path;
    item.kind = S_ISLNK(st.st_mode) ? ItemKind::symlink : ItemKind::file;
    item.size = static_cast<std::uint64_t>(st.st_size);
    item.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    item.mode = st.st_mode;
    m_progress.add_found(1, item.size);
    std::lock_guard lock(m_result_mutex);
    m_result.items.push_back(std::move(item));
  }

  int m_root_fd;
  const CancelToken& m_cancel;
  ProgressTracker& m_progress;
  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::deque<ScanTask> m_queue;
  unsigned m_busy = 0;
  std::mutex m_result_mutex;
  ScanResult m_result;
};

}  // namespace

ScanResult scan_tree(int root_fd, unsigned workers, const CancelToken& cancel, ProgressTracker& progress) {
  return TreeScanner(root_fd, cancel, progress).run(workers);
}

}  // namespace tfwsl::dataset
