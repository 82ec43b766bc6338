#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <string_view>
#include <thread>
#include <utility>

#include "linux/dataset/posix_files.hpp"
#include "linux/dataset/tree_scan.hpp"

namespace tfwsl::dataset {
namespace {

// Entries a thread stats before it moves on to the next folder in turn.
constexpr std::size_t k_stat_chunk = 8;
// Folders are listed ahead of their stats only while fewer names than this wait: enough to keep
// every thread busy, and a bound on what the listed names hold (a tree of a thousand folders of a
// thousand files would otherwise hold all their names at once).
constexpr std::size_t k_names_ahead = 1 << 16;

std::string join(const std::string& parent, const char* name) {
  return parent.empty() ? std::string(name) : parent + '/' + name;
}

// A listed folder whose entries still need their stat.
struct Folder {
  Folder(std::string p, ScanItems::FolderNumber n, UniqueFd f, std::atomic<unsigned>& held)
      : path(std::move(p)), number(n), fd(std::move(f)), m_held(held) {
    if (fd) ++m_held;
  }
  ~Folder() {
    if (fd) --m_held;
  }
  Folder(const Folder&) = delete;
  Folder& operator=(const Folder&) = delete;

  std::size_t count() const { return starts.size(); }
  // The i-th name, NUL-terminated for fstatat.
  const char* name(std::size_t i) const { return names.data() + starts[i]; }
  std::string_view name_view(std::size_t i) const {
    std::size_t end = i + 1 < starts.size() ? starts[i + 1] - 1 : names.size() - 1;
    return {names.data() + starts[i], end - starts[i]};
  }
  void add_name(const char* name) {
    starts.push_back(static_cast<std::uint32_t>(names.size()));
    names.append(name).push_back('\0');
  }

  std::string path;
  ScanItems::FolderNumber number;  // in ScanResult::items
  UniqueFd fd;                     // may be empty: stats then go by path from the root
  // The names still to stat, each NUL-terminated in one buffer: a string each cost 80 bytes a
  // name, and a scan holds the names of every folder it has listed ahead.
  std::string names;
  std::vector<std::uint32_t> starts;
  std::size_t next = 0;  // first name not yet handed to a thread

 private:
  std::atomic<unsigned>& m_held;
};

struct Work {
  std::string listing;             // a folder to list, or
  std::shared_ptr<Folder> folder;  // names [begin, end) of a listed folder to stat
  std::size_t begin = 0, end = 0;
};

class TreeScanner {
 public:
  TreeScanner(int root_fd, const ScanOptions& options, const CancelToken& cancel, ProgressTracker& progress)
      : m_root_fd(root_fd),
        m_options(options),
        m_cancel(cancel),
        m_progress(progress),
        m_excluded(options.exclude.begin(), options.exclude.end()) {}

  ScanResult run() {
    m_listings.emplace_back();  // the root
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < std::max(1u, m_options.threads); ++i) threads.emplace_back([this] { work(); });
    for (auto& t : threads) t.join();
    std::sort(m_result.directories.begin(), m_result.directories.end());
    m_result.items.sort_by_path();
    return std::move(m_result);
  }

 private:
  // Listings come first, so that every folder's entries join the rotation early, unless too many
  // listed folders already hold a descriptor. Folders are taken in turn, a chunk of names each.
  bool take(Work& work) {
    bool list = !m_listings.empty() &&
                (m_folders.empty() || (m_held.load() < m_options.max_open_folders && m_names_waiting < k_names_ahead));
    if (list) {
      work.listing = std::move(m_listings.front());
      m_listings.pop_front();
      return true;
    }
    if (m_folders.empty()) return false;
    work.folder = std::move(m_folders.front());
    m_folders.pop_front();
    work.begin = work.folder->next;
    work.end = std::min(work.begin + k_stat_chunk, work.folder->count());
    work.folder->next = work.end;
    m_names_waiting -= work.end - work.begin;
    if (work.end < work.folder->count()) m_folders.push_back(work.folder);
    return true;
  }

  void work() {
    while (true) {
      Work work;
      {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [this] { return !m_listings.empty() || !m_folders.empty() || m_busy == 0; });
        if (!take(work)) return;
        ++m_busy;
      }
      if (!m_cancel.cancelled()) {
        if (work.folder)
          stat_names(*work.folder, work.begin, work.end);
        else
          list_folder(work.listing);
      }
      work.folder.reset();  // the last chunk of a folder closes its descriptor
      std::lock_guard lock(m_mutex);
      if (--m_busy == 0) m_ready.notify_all();  // nothing queued and nobody busy: everyone leaves
    }
  }

  // As many waiting threads as there is new work for; waking all of them for each folder would
  // cost a context switch each, and on a latency-bound scan the CPU is what runs out.
  void wake(std::size_t units) {
    if (units >= m_options.threads)
      m_ready.notify_all();
    else
      for (std::size_t i = 0; i < units; ++i) m_ready.notify_one();
  }

  void problem(const std::string& path, int error, const char* doing) {
    std::string kind = error == ENOENT ? "vanished" : (error == EACCES || error == EPERM) ? "unreadable" : "error";
    std::lock_guard lock(m_result_mutex);
    m_result.problems.push_back({path, kind, std::string(doing) + ": " + errno_text(error)});
  }

  void unsupported(const std::string& path) {
    std::lock_guard lock(m_result_mutex);
    m_result.problems.push_back(
        {path, "unsupported", "not a file, folder or symlink (device, FIFO or socket): skipped"});
  }

  void list_folder(const std::string& path) {
    UniqueFd fd(path.empty() ? ::openat(m_root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                             : open_beneath(m_root_fd, path, O_RDONLY | O_DIRECTORY));
    if (!fd) return problem(path.empty() ? "." : path, errno, "cannot open the folder");
    struct stat st {};
    bool known = ::fstat(fd.get(), &st) == 0;
    ScanItems::FolderNumber number;
    {
      std::lock_guard lock(m_result_mutex);
      if (known) m_result.directory_ids.push_back(file_id(st));
      number = m_result.items.add_folder(path);
    }
    int listing_fd = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, 0);  // readdir's own; fd stays for the stats
    DIR* dir = listing_fd < 0 ? nullptr : ::fdopendir(listing_fd);
    if (dir == nullptr) {
      int error = errno;
      if (listing_fd >= 0) ::close(listing_fd);
      return problem(path, error, "cannot list the folder");
    }
    if (m_held.load() >= m_options.max_open_folders) fd.reset();
    auto folder = std::make_shared<Folder>(path, number, std::move(fd), m_held);
    std::vector<std::string> subfolders;
    errno = 0;
    while (dirent* entry = ::readdir(dir)) {
      const char* name = entry->d_name;
      if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
      if (path.empty() && std::string_view(name) == k_state_dir_name) continue;
      if (!m_excluded.empty() && m_excluded.count(std::string_view(name)) != 0) continue;
      switch (entry->d_type) {
        case DT_DIR:
          subfolders.push_back(join(path, name));
          break;
        case DT_REG:
        case DT_LNK:
        case DT_UNKNOWN:  // filesystems that do not fill d_type: the stat tells
          folder->add_name(name);
          break;
        default:
          unsupported(join(path, name));
      }
    }
    int error = errno;
    ::closedir(dir);
    if (error != 0) problem(path, error, "listing the folder failed part way");
    {
      std::lock_guard lock(m_result_mutex);
      for (const auto& d : subfolders) m_result.directories.push_back(d);
    }
    std::size_t units = subfolders.size() + (folder->count() + k_stat_chunk - 1) / k_stat_chunk;
    std::lock_guard lock(m_mutex);
    for (auto& d : subfolders) m_listings.push_back(std::move(d));
    m_names_waiting += folder->count();
    if (folder->count() > 0) m_folders.push_back(std::move(folder));
    wake(units);
  }

  void stat_names(const Folder& folder, std::size_t begin, std::size_t end) {
    // On the stack: the scan's threads allocate nothing per file that outlives the file, so that
    // the packed items are not interleaved with freed temporaries in every thread's malloc arena.
    std::array<std::pair<std::size_t, ScannedItem>, k_stat_chunk> found;  // name's index, item
    std::size_t found_count = 0;
    // A folder without a held descriptor is opened again beneath the root, without following a
    // symlink: a folder swapped for a symlink since its listing cannot lead the stats elsewhere.
    UniqueFd reopened;
    if (!folder.fd) reopened = UniqueFd(open_beneath(m_root_fd, folder.path, O_PATH | O_DIRECTORY));
    int folder_fd = folder.fd ? folder.fd.get() : reopened.get();
    int open_error = errno;
    for (std::size_t i = begin; i < end && !m_cancel.cancelled(); ++i) {
      auto& [name, item] = found[found_count];
      name = i;
      if (stat_one(folder, i, folder_fd, open_error, item)) ++found_count;
    }
    std::lock_guard lock(m_result_mutex);
    for (std::size_t f = 0; f < found_count; ++f)
      m_result.items.add(folder.number, folder.name_view(found[f].first), found[f].second);
  }

  // The folder's i-th name stat'ed through folder_fd (or failing with open_error when the folder
  // could not be opened): true for a file or symlink to record, filled into `item`.
  bool stat_one(const Folder& folder, std::size_t i, int folder_fd, int open_error, ScannedItem& item) {
    auto path = [&] { return join(folder.path, folder.name(i)); };
    struct stat st {};
    int rc = folder_fd >= 0 ? ::fstatat(folder_fd, folder.name(i), &st, AT_SYMLINK_NOFOLLOW) : (errno = open_error, -1);
    if (rc != 0) {
      problem(path(), errno, "cannot stat");
      return false;
    }
    if (S_ISDIR(st.st_mode)) {  // a DT_UNKNOWN entry
      {
        std::lock_guard lock(m_result_mutex);
        m_result.directories.push_back(path());
      }
      std::lock_guard lock(m_mutex);
      m_listings.push_back(path());
      wake(1);
      return false;
    }
    if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
      unsupported(path());
      return false;
    }
    item = ScannedItem{};
    item.kind = S_ISLNK(st.st_mode) ? ItemKind::symlink : ItemKind::file;
    item.size = static_cast<std::uint64_t>(st.st_size);
    item.mode = st.st_mode;
    m_progress.add_found(1, item.size);
    if (!m_options.visit) return true;
    item.path = path();  // only the visit needs the whole path; the result keeps the leaf name
    return m_options.visit(item, static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec);
  }

  int m_root_fd;
  const ScanOptions& m_options;
  const CancelToken& m_cancel;
  ProgressTracker& m_progress;
  const std::set<std::string, std::less<>> m_excluded;  // read-only once the threads start

  std::mutex m_mutex;  // guards the work below
  std::condition_variable m_ready;
  std::deque<std::string> m_listings;
  std::deque<std::shared_ptr<Folder>> m_folders;
  unsigned m_busy = 0;
  std::size_t m_names_waiting = 0;  // listed, not yet handed out for their stat
  std::atomic<unsigned> m_held{0};

  std::mutex m_result_mutex;
  ScanResult m_result;
};

}  // namespace

ScanResult scan_tree(int root_fd, const ScanOptions& options, const CancelToken& cancel, ProgressTracker& progress) {
  return TreeScanner(root_fd, options, cancel, progress).run();
}

}  // namespace tfwsl::dataset
