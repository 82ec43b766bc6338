#include <windows.h>

#include <atomic>

#include "win/push/interrupt_catcher.hpp"

namespace tfwsl::push {
namespace {

std::atomic<bool> g_interrupt_requested{false};

// Runs on a thread Windows creates for the event; TRUE: handled, the process is not ended. A
// console that closes ends the process anyway once this returns, after a few seconds at most.
BOOL WINAPI on_push_console_event(DWORD event) {
  switch (event) {
    case CTRL_C_EVENT:
    case CTRL_BREAK_EVENT:
    case CTRL_CLOSE_EVENT:
      g_interrupt_requested.store(true);
      return TRUE;
    default:
      return FALSE;
  }
}

}  // namespace

InterruptCatcher::InterruptCatcher() {
  g_interrupt_requested = false;
  SetConsoleCtrlHandler(on_push_console_event, TRUE);
}

InterruptCatcher::~InterruptCatcher() { SetConsoleCtrlHandler(on_push_console_event, FALSE); }

bool InterruptCatcher::requested() const { return g_interrupt_requested.load(); }

}  // namespace tfwsl::push
