#include "common/util/atomic_file.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <random>
#include <string>

namespace tfwsl {

namespace {
std::atomic<ReplaceFault> g_stop_stage{ReplaceFault::none};
}  // namespace

void set_replace_stop_stage(ReplaceFault stage) { g_stop_stage.store(stage); }
ReplaceFault replace_stop_stage() { return g_stop_stage.load(); }

std::string temporary_name_prefix(const std::filesystem::path& target) {
  return "." + shown_path(target.filename()) + ".tfwsl-tmp-";
}

std::filesystem::path random_temporary_path(const std::filesystem::path& target) {
  // std::random_device reads the system's generator (getrandom, or rand_s on MinGW): a name another
  // user cannot guess ahead of the write.
  static thread_local std::random_device source;
  const std::uint64_t high = source();
  const std::uint64_t suffix = (high << 32) | source();
  const std::string name = temporary_name_prefix(target) + fmt::format("{:016x}", suffix);
  return target.parent_path() / std::filesystem::path(std::u8string(name.begin(), name.end()));
}

std::string shown_path(const std::filesystem::path& path) {
  const auto text = path.u8string();
  return std::string(text.begin(), text.end());
}

}  // namespace tfwsl
