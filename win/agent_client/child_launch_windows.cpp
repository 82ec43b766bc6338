#include <boost/process/windows.hpp>

#include "common/process/windows_command_line.hpp"
#include "common/text/utf_convert.hpp"
#include "win/agent_client/child_launch.hpp"

namespace bp = boost::process;

namespace tfwsl::agent_client {

bp::child launch_child(const std::vector<std::string>& argv, const std::filesystem::path& program,
                       const std::map<std::string, std::string>& env, bp::ipstream& out, bp::ipstream& err,
                       bp::opstream& in) {
  // A copy: this_process::wenvironment() is the live environment, and setting a key there would
  // change this process's own.
  bp::wenvironment environment = boost::this_process::wenvironment();
  for (const auto& [k, v] : env) environment[utf8_to_wide(k)] = utf8_to_wide(v);
  std::vector<std::string> a = argv;
  a[0] = wide_to_utf8(program.wstring());
  std::wstring line = utf8_to_wide(build_windows_command_line(a));
  return bp::child(bp::cmd(line), bp::std_out > out, bp::std_err > err, bp::std_in < in, environment,
                   bp::windows::create_no_window);
}

}  // namespace tfwsl::agent_client
