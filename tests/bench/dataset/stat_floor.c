// The floor of a no-op re-run: list every folder of the given trees and lstat every entry, on
// THREADS threads, each stat relative to its folder's descriptor, eight names of a folder at a
// time, round-robin over the folders (the order of tfwsl's scan), and nothing else: no manifest,
// no comparison, no result list. A re-run has to do at least this much: the source's size and mtime and the
// target's size, for every file. Built and run by bench_import.sh after each re-run, with the page
// cache handled the same way; prints the wall time in seconds.
//
//   stat_floor THREADS TREE [TREE...]
#define _GNU_SOURCE

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  int dir_fd;
  size_t rank;  // position within its folder
  size_t folder;
  char* name;
} Entry;

static pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
static Entry* g_entries;
static size_t g_count, g_capacity;
typedef struct {
  int parent_fd;  // -1 for a root given by its path
  char* name;
} Folder;

static Folder* g_level;  // folders of the level being listed: opened and listed in parallel
static size_t g_level_count;
static Folder* g_next_level;
static size_t g_next_count, g_next_capacity, g_folders;
static atomic_size_t g_next;

static void add_entry(int dir_fd, size_t folder, size_t rank, const char* name) {
  if (g_count == g_capacity) {
    g_capacity = g_capacity ? g_capacity * 2 : 4096;
    g_entries = realloc(g_entries, g_capacity * sizeof *g_entries);
    if (!g_entries) abort();
  }
  g_entries[g_count++] = (Entry){dir_fd, rank, folder, strdup(name)};
}

static void add_folder(int parent_fd, const char* name) {
  if (g_next_count == g_next_capacity) {
    g_next_capacity = g_next_capacity ? g_next_capacity * 2 : 256;
    g_next_level = realloc(g_next_level, g_next_capacity * sizeof *g_next_level);
    if (!g_next_level) abort();
  }
  g_next_level[g_next_count++] = (Folder){parent_fd, strdup(name)};
}

// Opens and lists one folder: sub-folders join the next level, everything else is queued for a
// stat. The folder's descriptor stays open for those stats (the bench trees have a few hundred).
static void list(const Folder* f) {
  int dir_fd = f->parent_fd < 0 ? open(f->name, O_RDONLY | O_DIRECTORY)
                                : openat(f->parent_fd, f->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  DIR* dir = dir_fd < 0 ? NULL : fdopendir(dup(dir_fd));
  if (!dir) {
    perror(f->name);
    exit(1);
  }
  pthread_mutex_lock(&g_mutex);
  size_t folder = g_folders++, rank = 0;
  pthread_mutex_unlock(&g_mutex);
  struct dirent* e;
  while ((e = readdir(dir)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || strcmp(e->d_name, ".tfwsl-import") == 0)
      continue;
    pthread_mutex_lock(&g_mutex);
    if (e->d_type == DT_DIR)
      add_folder(dir_fd, e->d_name);
    else
      add_entry(dir_fd, folder, rank++, e->d_name);
    pthread_mutex_unlock(&g_mutex);
  }
  closedir(dir);
}

static void* list_work(void* unused) {
  (void)unused;
  for (;;) {
    size_t i = atomic_fetch_add(&g_next, 1);
    if (i >= g_level_count) return NULL;
    list(&g_level[i]);
  }
}

static size_t* g_chunks;  // start of each chunk (one folder's turn) in g_entries, then g_count
static size_t g_chunk_count;

// A thread takes a whole chunk and stats its names one after the other, as tfwsl's scan does.
static void* stat_work(void* unused) {
  (void)unused;
  struct stat st;
  for (;;) {
    size_t c = atomic_fetch_add(&g_next, 1);
    if (c >= g_chunk_count) return NULL;
    for (size_t i = g_chunks[c]; i < g_chunks[c + 1]; ++i)
      if (fstatat(g_entries[i].dir_fd, g_entries[i].name, &st, AT_SYMLINK_NOFOLLOW) != 0) perror(g_entries[i].name);
  }
}

// Eight names of one folder, then eight of the next, as tfwsl's scan takes them.
static int by_turn(const void* a, const void* b) {
  const Entry* x = a;
  const Entry* y = b;
  if (x->rank / 8 != y->rank / 8) return x->rank / 8 < y->rank / 8 ? -1 : 1;
  if (x->folder != y->folder) return x->folder < y->folder ? -1 : 1;
  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static void run_threads(int threads, void* (*fn)(void*)) {
  pthread_t ids[1024];
  atomic_store(&g_next, 0);
  for (int i = 0; i < threads; ++i) pthread_create(&ids[i], NULL, fn, NULL);
  for (int i = 0; i < threads; ++i) pthread_join(ids[i], NULL);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s THREADS TREE [TREE...]\n", argv[0]);
    return 2;
  }
  int threads = atoi(argv[1]);
  if (threads < 1 || threads > 1024) threads = 64;
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (int i = 2; i < argc; ++i) add_folder(-1, argv[i]);
  while (g_next_count > 0) {  // one level of folders at a time, listed in parallel
    free(g_level);
    g_level = g_next_level;
    g_level_count = g_next_count;
    g_next_level = NULL;
    g_next_count = g_next_capacity = 0;
    run_threads(threads, list_work);
  }
  qsort(g_entries, g_count, sizeof *g_entries, by_turn);
  g_chunks = malloc((g_count + 1) * sizeof *g_chunks);
  for (size_t i = 0; i < g_count; ++i)
    if (i == 0 || g_entries[i].folder != g_entries[i - 1].folder || g_entries[i].rank / 8 != g_entries[i - 1].rank / 8)
      g_chunks[g_chunk_count++] = i;
  g_chunks[g_chunk_count] = g_count;
  run_threads(threads, stat_work);
  clock_gettime(CLOCK_MONOTONIC, &end);
  printf("%.3f\n", (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9);
  return 0;
}
