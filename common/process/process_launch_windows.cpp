#include <boost/process.hpp>
#include <boost/process/windows.hpp>

#include "common/process/process_launch.hpp"
#include "common/process/windows_command_line.hpp"
#include "common/text/utf_convert.hpp"

namespace bp = boost::process;

namespace tfwsl {

bool names_a_path(const std::string& name) { return name.find_first_of("\\/:") != std::string::npos; }

bp::child start_child(const ProcessRequest& request, const std::filesystem::path& program, ChildLaunch& launch,
                      boost::asio::io_context& ios) {
  // Wide environment: the command line is wide too, and Boost.Process v1 cannot mix them.
  // A copy: this_process::wenvironment() is the live environment, and setting a key there would
  // change this process's own.
  bp::wenvironment environment = boost::this_process::wenvironment();
  for (const auto& [key, value] : request.env) environment[utf8_to_wide(key)] = utf8_to_wide(value);
  auto start_dir = request.working_directory.value_or(std::filesystem::current_path());
  // Our own quoting (build_windows_command_line), since Boost.Process v1's does not follow the
  // MSVC runtime's CommandLineToArgvW rules.
  std::vector<std::string> argv = request.argv;
  argv[0] = wide_to_utf8(program.wstring());
  std::wstring line = utf8_to_wide(build_windows_command_line(argv));
  return bp::child(bp::cmd(line), bp::std_out > launch.out.pipe(), bp::std_err > launch.err.pipe(),
                   bp::std_in < boost::asio::buffer(launch.input), environment, bp::start_dir(start_dir.wstring()),
                   bp::windows::create_no_window, bp::error(launch.error), ios);
}

bool child_has_ended(bp::child& child) {
  std::error_code ec;
  return !child.running(ec);
}

void end_child_tree(bp::child& child) {
  std::error_code ec;
  if (child.running(ec)) child.terminate(ec);
}

}  // namespace tfwsl
