#include <signal.h>

#include <atomic>

#include "win/push/interrupt_catcher.hpp"

namespace tfwsl::push {
namespace {

std::atomic<bool> g_interrupt_requested{false};  // lock-free: safe to store from a signal handler
struct sigaction g_previous_int {
}, g_previous_term{};

extern "C" void on_push_interrupt(int) { g_interrupt_requested.store(true); }

}  // namespace

InterruptCatcher::InterruptCatcher() {
  g_interrupt_requested = false;
  struct sigaction action {};
  action.sa_handler = on_push_interrupt;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &g_previous_int);
  ::sigaction(SIGTERM, &action, &g_previous_term);
}

InterruptCatcher::~InterruptCatcher() {
  ::sigaction(SIGINT, &g_previous_int, nullptr);
  ::sigaction(SIGTERM, &g_previous_term, nullptr);
}

bool InterruptCatcher::requested() const { return g_interrupt_requested.load(); }

}  // namespace tfwsl::push
