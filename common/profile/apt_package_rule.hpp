#pragma once
// The one rule for the apt package names a profile may list (`packages.apt`), used by `tfwsl
// profile validate` (the key table's item check) and by the provisioning plan before anything
// reaches apt's argv. A name must look like a Debian package name (Debian Policy 5.6.1: lower-case
// letters, digits, '+', '-', '.', at least two characters, starting with a letter or digit), so no
// option ("--allow-unauthenticated", "-o...") or path can be smuggled into apt's argv, and no
// version pin (the provisioning check reads dpkg's status by name); and it must not be a package
// that installs a Linux NVIDIA driver inside WSL (is_linux_driver_package).

#include <optional>
#include <string>
#include <string_view>

namespace tfwsl {

// https://www.debian.org/doc/debian-policy/ch-controlfields.html#source
bool looks_like_apt_package_name(std::string_view name);

// Why `name` may not be a profile's apt package (a sentence naming it), or nothing.
std::optional<std::string> apt_package_name_problem(std::string_view name);

}  // namespace tfwsl
