// A read-only FUSE passthrough that adds a fixed delay to each open, getattr and read: a stand-in
// for a latency-bound source such as /mnt/c over 9P in WSL 2, where each operation is a round trip.
// Built by bench_import.sh with libfuse3 (not part of the product build).
//
//   fuse_delay_passthrough UNDERLYING_DIR MOUNTPOINT [--delay-us N] [fuse options, e.g. -f]
//
// Kernel attribute and entry caching is off (timeouts 0), so every lookup and stat reaches this
// process and pays the delay, as an uncached 9P mount does. Requests are served by many threads, so
// concurrent requests overlap their delays the way concurrent 9P requests do.
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int g_root_fd = -1;
static long g_delay_us = 1000;

static void delay(void) {
  if (g_delay_us <= 0) return;
  struct timespec ts = {g_delay_us / 1000000, (g_delay_us % 1000000) * 1000};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

// FUSE paths start with '/': relative to the underlying root ("." for the root itself).
static const char* rel(const char* path) { return path[1] ? path + 1 : "."; }

static void* pt_init(struct fuse_conn_info* conn, struct fuse_config* cfg) {
  (void)conn;
  cfg->use_ino = 1;
  cfg->attr_timeout = 0;
  cfg->entry_timeout = 0;
  cfg->negative_timeout = 0;
  return NULL;
}

static int pt_getattr(const char* path, struct stat* st, struct fuse_file_info* fi) {
  delay();
  int rc = fi ? fstat((int)fi->fh, st) : fstatat(g_root_fd, rel(path), st, AT_SYMLINK_NOFOLLOW);
  return rc == 0 ? 0 : -errno;
}

static int pt_readlink(const char* path, char* buf, size_t size) {
  ssize_t n = readlinkat(g_root_fd, rel(path), buf, size - 1);
  if (n < 0) return -errno;
  buf[n] = '\0';
  return 0;
}

static int pt_readdir(const char* path, void* buf, fuse_fill_dir_t filler, off_t offset, struct fuse_file_info* fi,
                      enum fuse_readdir_flags flags) {
  (void)offset;
  (void)fi;
  (void)flags;
  int fd = openat(g_root_fd, rel(path), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return -errno;
  DIR* dir = fdopendir(fd);
  if (!dir) {
    close(fd);
    return -errno;
  }
  struct dirent* entry;
  while ((entry = readdir(dir)) != NULL) {
    struct stat st;
    memset(&st, 0, sizeof st);
    st.st_ino = entry->d_ino;
    st.st_mode = (mode_t)DTTOIF(entry->d_type);
    if (filler(buf, entry->d_name, &st, 0, 0)) break;
  }
  closedir(dir);
  return 0;
}

static int pt_open(const char* path, struct fuse_file_info* fi) {
  delay();
  if ((fi->flags & O_ACCMODE) != O_RDONLY) return -EROFS;
  int fd = openat(g_root_fd, rel(path), O_RDONLY | O_NOFOLLOW);
  if (fd < 0) return -errno;
  fi->fh = (uint64_t)fd;
  return 0;
}

static int pt_read(const char* path, char* buf, size_t size, off_t offset, struct fuse_file_info* fi) {
  (void)path;
  delay();
  ssize_t n = pread((int)fi->fh, buf, size, offset);
  return n < 0 ? -errno : (int)n;
}

static int pt_release(const char* path, struct fuse_file_info* fi) {
  (void)path;
  close((int)fi->fh);
  return 0;
}

static int pt_statfs(const char* path, struct statvfs* st) {
  (void)path;
  return fstatvfs(g_root_fd, st) == 0 ? 0 : -errno;
}

static const struct fuse_operations k_operations = {
    .init = pt_init,
    .getattr = pt_getattr,
    .readlink = pt_readlink,
    .readdir = pt_readdir,
    .open = pt_open,
    .read = pt_read,
    .release = pt_release,
    .statfs = pt_statfs,
};

int main(int argc, char* argv[]) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s UNDERLYING_DIR MOUNTPOINT [--delay-us N] [fuse options]\n", argv[0]);
    return 2;
  }
  g_root_fd = open(argv[1], O_RDONLY | O_DIRECTORY);
  if (g_root_fd < 0) {
    perror(argv[1]);
    return 2;
  }
  char* fuse_argv[64];
  int fuse_argc = 0;
  fuse_argv[fuse_argc++] = argv[0];
  fuse_argv[fuse_argc++] = argv[2];
  for (int i = 3; i < argc && fuse_argc < 60; ++i) {
    if (strcmp(argv[i], "--delay-us") == 0 && i + 1 < argc) {
      g_delay_us = strtol(argv[++i], NULL, 10);
    } else {
      fuse_argv[fuse_argc++] = argv[i];
    }
  }
  fuse_argv[fuse_argc++] = "-o";
  fuse_argv[fuse_argc++] = "ro,default_permissions,max_threads=128";
  fuse_argv[fuse_argc] = NULL;
  return fuse_main(fuse_argc, fuse_argv, &k_operations, NULL);
}
