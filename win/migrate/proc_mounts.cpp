#include "win/migrate/proc_mounts.hpp"

#include <sstream>
#include <string>

#include "common/parse/line_tools.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::migrate {

std::set<char> drives_in_proc_mounts(std::string_view proc_mounts) {
  std::set<char> drives;
  for (std::string_view line : lines_of(proc_mounts)) {
    std::istringstream fields{std::string(line)};
    std::string device, point, type;
    if (!(fields >> device >> point >> type)) continue;
    if (type != "9p" && type != "drvfs" && type != "virtiofs") continue;
    if (point.size() < 3 || point[point.size() - 2] != '/' || !ascii_is_alpha(point.back())) continue;
    drives.insert(ascii_lower(point.back()));
  }
  return drives;
}

}  // namespace tfwsl::migrate
