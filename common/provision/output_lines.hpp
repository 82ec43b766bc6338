#pragma once
// Output that arrives in pieces (a log being written, a pipe read as it comes) cut into whole
// lines: "\n", "\r\n" and a lone "\r" (a progress bar redrawn in place) each end one.

#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::provision {

class OutputLines {
 public:
  // The lines `piece` completes (without their ends, blank ones dropped); the rest waits.
  std::vector<std::string> feed(std::string_view piece);
  // What is left when the output has ended (a last line without its end).
  std::vector<std::string> finish();

 private:
  std::string m_pending;
};

}  // namespace tfwsl::provision
