# Every third-party dependency becomes one target here, the same names on Linux and MinGW:
#   tfwsl::headers  header-only libraries (Boost, nlohmann-json, CLI11, tl::expected, fmt, xxHash,
#                   Catch2), the compile definitions that make them header-only, and spdlog
#                   compiled from its Debian source package (tfwsl_spdlog)
#   tfwsl::httplib  cpp-httplib 0.18.7 (Debian trixie source package, CVE patches applied)
#   tfwsl::yaml     yaml-cpp, linked statically
# Fetched sources live in TFWSL_DEPS (scripts/install-deps.sh fills it), never in the tree.

if(DEFINED ENV{TFWSL_DEPS})
  set(_deps_default "$ENV{TFWSL_DEPS}")
else()
  set(_deps_default "$ENV{HOME}/.cache/tfwsl-deps")
endif()
set(TFWSL_DEPS "${_deps_default}" CACHE PATH "Cache of fetched dependency sources (scripts/install-deps.sh)")

find_package(Threads REQUIRED)

if(MSVC)
  # Windows-native route (docs/building.md): everything from vcpkg's manifest. Untested here.
  find_package(Boost REQUIRED)
  find_package(yaml-cpp CONFIG REQUIRED)
  find_package(httplib CONFIG REQUIRED)
  find_package(nlohmann_json CONFIG REQUIRED)
  find_package(CLI11 CONFIG REQUIRED)
  find_package(tl-expected CONFIG REQUIRED)
  find_package(xxHash CONFIG REQUIRED)
  add_library(tfwsl_headers INTERFACE)
  add_library(tfwsl::headers ALIAS tfwsl_headers)
  target_compile_definitions(tfwsl_headers INTERFACE SPDLOG_HEADER_ONLY SPDLOG_FMT_EXTERNAL FMT_HEADER_ONLY
    BOOST_PROCESS_USE_STD_FS BOOST_ALL_NO_LIB XXH_INLINE_ALL _WIN32_WINNT=0x0A00 WINVER=0x0A00
    WIN32_LEAN_AND_MEAN NOMINMAX)
  target_link_libraries(tfwsl_headers INTERFACE Boost::headers nlohmann_json::nlohmann_json CLI11::CLI11
    tl::expected xxHash::xxhash Threads::Threads ws2_32 mswsock bcrypt ntdll)
  add_library(tfwsl::yaml ALIAS yaml-cpp)
  add_library(tfwsl_httplib INTERFACE)
  target_link_libraries(tfwsl_httplib INTERFACE httplib::httplib tfwsl_headers)
  add_library(tfwsl::httplib ALIAS tfwsl_httplib)
  find_package(tomlplusplus CONFIG REQUIRED)
  add_library(tfwsl_toml INTERFACE)
  target_link_libraries(tfwsl_toml INTERFACE tomlplusplus::tomlplusplus)
  target_compile_definitions(tfwsl_toml INTERFACE TOML_EXCEPTIONS=0)
  add_library(tfwsl::toml ALIAS tfwsl_toml)
  return()
endif()

add_library(tfwsl_headers INTERFACE)
add_library(tfwsl::headers ALIAS tfwsl_headers)
target_compile_definitions(tfwsl_headers INTERFACE
  BOOST_PROCESS_USE_STD_FS                                # Boost.Process v1 without Boost.Filesystem
  BOOST_ALL_NO_LIB
  XXH_INLINE_ALL)
target_link_libraries(tfwsl_headers INTERFACE Threads::Threads)

if(WIN32 AND CMAKE_CROSSCOMPILING)
  # MinGW must not see /usr/include (glibc's headers break it). Expose each library's own folder
  # through a farm of links instead.
  set(_farm "${CMAKE_BINARY_DIR}/_host_headers")
  file(MAKE_DIRECTORY "${_farm}")
  foreach(_item boost nlohmann CLI tl spdlog fmt catch2 xxhash.h xxh3.h)
    if(NOT EXISTS "/usr/include/${_item}")
      message(FATAL_ERROR "/usr/include/${_item} is missing: run scripts/install-deps.sh")
    endif()
    file(CREATE_LINK "/usr/include/${_item}" "${_farm}/${_item}" SYMBOLIC)
  endforeach()
  target_include_directories(tfwsl_headers SYSTEM INTERFACE "${_farm}")
  set(_yaml_prefix "${TFWSL_DEPS}/mingw-yaml-cpp")
  set(_yaml_lib "${_yaml_prefix}/lib/libyaml-cpp.a")
  set(_yaml_inc "${_yaml_prefix}/include")
else()
  set(_yaml_lib "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/libyaml-cpp.a")
  set(_yaml_inc "/usr/include")
endif()
if(WIN32)
  target_compile_definitions(tfwsl_headers INTERFACE
    _WIN32_WINNT=0x0A00 WINVER=0x0A00 WIN32_LEAN_AND_MEAN NOMINMAX)
  target_link_libraries(tfwsl_headers INTERFACE ws2_32 mswsock bcrypt ntdll)
endif()

# spdlog, compiled once into a static library from the Debian source package of the very version
# whose headers libspdlog-dev installs (1.10.0): header-only spdlog cost about 10 s of compile time
# in every file that logs. fmt likewise (format.cc of libfmt-dev's own version, 9.1.0): header-only
# fmt compiled its implementation into every file that formats, about 40% of each file's compile
# time. Both static, no shared spdlog or fmt, so the agent stays portable.
set(_fmt_src "${TFWSL_DEPS}/fmt-9.1.0/src")
if(NOT EXISTS "${_fmt_src}/format.cc")
  message(FATAL_ERROR "fmt 9.1.0 sources not found in ${_fmt_src}: run scripts/install-deps.sh")
endif()
add_library(tfwsl_fmt STATIC "${_fmt_src}/format.cc")
target_compile_options(tfwsl_fmt PRIVATE -w)
if(WIN32 AND CMAKE_CROSSCOMPILING)
  target_include_directories(tfwsl_fmt SYSTEM PUBLIC "${_farm}")
endif()
set(_spdlog_src "${TFWSL_DEPS}/spdlog-1.10.0/src")
if(NOT EXISTS "${_spdlog_src}/spdlog.cpp")
  message(FATAL_ERROR "spdlog 1.10.0 sources not found in ${_spdlog_src}: run scripts/install-deps.sh")
endif()
add_library(tfwsl_spdlog STATIC "${_spdlog_src}/spdlog.cpp" "${_spdlog_src}/stdout_sinks.cpp"
  "${_spdlog_src}/color_sinks.cpp" "${_spdlog_src}/file_sinks.cpp" "${_spdlog_src}/async.cpp" "${_spdlog_src}/cfg.cpp")
target_compile_definitions(tfwsl_spdlog PUBLIC SPDLOG_COMPILED_LIB SPDLOG_FMT_EXTERNAL)
target_compile_options(tfwsl_spdlog PRIVATE -w)
target_link_libraries(tfwsl_spdlog PUBLIC tfwsl_fmt Threads::Threads)
if(WIN32 AND CMAKE_CROSSCOMPILING)
  target_include_directories(tfwsl_spdlog SYSTEM PUBLIC "${_farm}")
  target_compile_definitions(tfwsl_spdlog PRIVATE _WIN32_WINNT=0x0A00 WINVER=0x0A00 WIN32_LEAN_AND_MEAN NOMINMAX)
endif()
target_link_libraries(tfwsl_headers INTERFACE tfwsl_spdlog)

if(NOT EXISTS "${_yaml_lib}")
  message(FATAL_ERROR "yaml-cpp static library not found at ${_yaml_lib}: run scripts/install-deps.sh")
endif()
add_library(tfwsl_yaml STATIC IMPORTED GLOBAL)
set_target_properties(tfwsl_yaml PROPERTIES IMPORTED_LOCATION "${_yaml_lib}")
target_include_directories(tfwsl_yaml SYSTEM INTERFACE "${_yaml_inc}")
add_library(tfwsl::yaml ALIAS tfwsl_yaml)

set(TFWSL_HTTPLIB_DIR "${TFWSL_DEPS}/cpp-httplib-0.18.7")
if(NOT EXISTS "${TFWSL_HTTPLIB_DIR}/httplib.h")
  message(FATAL_ERROR "cpp-httplib 0.18.7 not found in ${TFWSL_HTTPLIB_DIR}: run scripts/install-deps.sh")
endif()
add_library(tfwsl_httplib INTERFACE)
target_include_directories(tfwsl_httplib SYSTEM INTERFACE "${TFWSL_HTTPLIB_DIR}")
# No OpenSSL, zlib or brotli: the agent talks plain HTTP on loopback only.
target_link_libraries(tfwsl_httplib INTERFACE tfwsl_headers)
add_library(tfwsl::httplib ALIAS tfwsl_httplib)

# toml++ 3.3 (Debian libtomlplusplus-dev, header-only): pyproject.toml and Pipfile are read with it.
# The MinGW compiler sees only its own folder (a link in the build folder), never /usr/include.
if(NOT EXISTS "/usr/include/toml++/toml.h")
  message(FATAL_ERROR "/usr/include/toml++ is missing: run scripts/install-deps.sh")
endif()
add_library(tfwsl_toml INTERFACE)
if(WIN32 AND CMAKE_CROSSCOMPILING)
  file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/_toml_headers")
  file(CREATE_LINK "/usr/include/toml++" "${CMAKE_BINARY_DIR}/_toml_headers/toml++" SYMBOLIC)
  target_include_directories(tfwsl_toml SYSTEM INTERFACE "${CMAKE_BINARY_DIR}/_toml_headers")
endif()
# Errors are values (toml::parse_result), not exceptions: one bad pyproject.toml is a message.
target_compile_definitions(tfwsl_toml INTERFACE TOML_EXCEPTIONS=0)
add_library(tfwsl::toml ALIAS tfwsl_toml)
