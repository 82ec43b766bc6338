# Project-wide warnings and the helpers that turn a folder into a library or a test binary.

add_library(tfwsl_options INTERFACE)
if(MSVC)
  target_compile_options(tfwsl_options INTERFACE /W4 /utf-8 /permissive-)
else()
  target_compile_options(tfwsl_options INTERFACE -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)
endif()
target_include_directories(tfwsl_options INTERFACE "${PROJECT_SOURCE_DIR}")
target_compile_definitions(tfwsl_options INTERFACE TFWSL_VERSION="${PROJECT_VERSION}")

# Sources of a folder for this platform: foo_windows.cpp only on Windows, foo_posix.cpp only elsewhere.
function(tfwsl_platform_sources out dir)
  file(GLOB _all CONFIGURE_DEPENDS "${dir}/*.cpp")
  set(_kept "")
  foreach(_f IN LISTS _all)
    if(_f MATCHES "_windows(_test)?\\.cpp$" AND NOT WIN32)
      continue()
    endif()
    if(_f MATCHES "_posix(_test)?\\.cpp$" AND WIN32)
      continue()
    endif()
    list(APPEND _kept "${_f}")
  endforeach()
  set(${out} "${_kept}" PARENT_SCOPE)
endfunction()

# tfwsl_add_library(NAME DIR dir DEPS ...): a static library from one folder's sources.
# One folder per concept area keeps a half-finished area from breaking the others' builds.
function(tfwsl_add_library name)
  cmake_parse_arguments(A "" "DIR" "DEPS" ${ARGN})
  if(NOT A_DIR)
    set(A_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  # The dependency order is enforced, not only documented: a tfwsl_core_*, tfwsl_win_* or
  # tfwsl_linux_* library may depend only on one defined before it (common/CMakeLists.txt, then
  # win/CMakeLists.txt, then linux/CMakeLists.txt list the folders in that order).
  # And the dependency rule (docs/architecture.md): common/ never depends on win/ or linux/, nor
  # they on each other (tests/layering checks the whole link graph too).
  set(_forbidden "")
  if(name MATCHES "^tfwsl_core_")
    set(_forbidden "^tfwsl_(win|linux)_")
  elseif(name MATCHES "^tfwsl_win_")
    set(_forbidden "^tfwsl_linux_")
  elseif(name MATCHES "^tfwsl_linux_")
    set(_forbidden "^tfwsl_win_")
  endif()
  foreach(_dep IN LISTS A_DEPS)
    if(_forbidden AND _dep MATCHES "${_forbidden}")
      message(FATAL_ERROR "${name} depends on ${_dep}: common/ never depends on win/ or linux/, nor "
                          "win/ and linux/ on each other (docs/architecture.md, the dependency rule)")
    endif()
    if(_dep MATCHES "^tfwsl_(core|win|linux)_" AND NOT TARGET ${_dep})
      message(FATAL_ERROR "${name} depends on ${_dep}, which is not defined before it: "
                          "list its folder earlier (common/, win/ and linux/ CMakeLists.txt, in that order)")
    endif()
  endforeach()
  tfwsl_platform_sources(_srcs "${A_DIR}")
  add_library(${name} STATIC ${_srcs})
  target_link_libraries(${name} PUBLIC tfwsl_options tfwsl_headers ${A_DEPS})
endfunction()
