#include "win/push/host_free_space.hpp"

namespace tfwsl::push {
namespace {

class PortFreeSpace final : public FreeSpace {
 public:
  explicit PortFreeSpace(std::function<std::uint64_t(const std::string&)> port) : m_port(std::move(port)) {}
  Result<std::uint64_t> free_bytes(const std::string& path) const override { return m_port(path); }

 private:
  std::function<std::uint64_t(const std::string&)> m_port;
};

}  // namespace

std::unique_ptr<FreeSpace> make_host_free_space(const MachinePorts& machine) {
  if (machine.host_free_bytes) return std::make_unique<PortFreeSpace>(machine.host_free_bytes);
  return make_system_free_space();
}

}  // namespace tfwsl::push
