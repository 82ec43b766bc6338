#include "common/push/host_free_space.hpp"

#include <charconv>

#include <spdlog/spdlog.h>

namespace tfwsl::push {
namespace {

class FixedFreeSpace final : public FreeSpace {
 public:
  explicit FixedFreeSpace(std::uint64_t bytes) : m_bytes(bytes) {}
  Result<std::uint64_t> free_bytes(const std::string&) const override { return m_bytes; }

 private:
  std::uint64_t m_bytes;
};

}  // namespace

std::unique_ptr<FreeSpace> with_free_space_test_hook(std::unique_ptr<FreeSpace> real, const EnvironmentLookup& environment) {
  auto value = environment ? environment(k_free_space_test_hook_env) : std::nullopt;
  if (!value || value->empty()) return real;
  std::uint64_t bytes = 0;
  auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), bytes);
  if (ec != std::errc() || end != value->data() + value->size()) {
    spdlog::warn("{}='{}' is not a number of bytes: ignored", k_free_space_test_hook_env, *value);
    return real;
  }
  spdlog::warn("test hook {}: every host drive reports {} free bytes", k_free_space_test_hook_env, bytes);
  return std::make_unique<FixedFreeSpace>(bytes);
}

}  // namespace tfwsl::push
