#pragma once
// The clock as a port, so rate/ETA/uptime/cache-expiry logic is testable without sleeping.

#include <chrono>

namespace tfwsl {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::chrono::steady_clock::time_point now() const = 0;
};

class SteadyClock final : public Clock {
 public:
  std::chrono::steady_clock::time_point now() const override { return std::chrono::steady_clock::now(); }
};

// For tests: time moves only when told to.
class ManualClock final : public Clock {
 public:
  std::chrono::steady_clock::time_point now() const override { return m_now; }
  void advance(std::chrono::steady_clock::duration d) { m_now += d; }

 private:
  std::chrono::steady_clock::time_point m_now{};
};

}  // namespace tfwsl
