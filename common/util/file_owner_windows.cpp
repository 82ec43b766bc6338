// Windows owners are SIDs. Wine keeps no real owners on its files (it reports a made-up one, or
// none), so what is checked here runs for real only on Windows; the rules that use it are tested
// on Linux with real users (tests/unit/wslconfig, tests/unit/profile).
#include <windows.h>
// clang-format off: aclapi.h and sddl.h need windows.h first
#include <aclapi.h>
#include <sddl.h>
// clang-format on

#include <string>
#include <vector>

#include "common/util/atomic_file.hpp"
#include "common/util/file_owner.hpp"
#include "common/util/windows_error_text.hpp"

namespace tfwsl {
namespace {

// A SID's string form is ASCII ("S-1-5-18"): the ANSI calls lose nothing.
std::optional<AccountId> sid_text(PSID sid) {
  LPSTR text = nullptr;
  if (!sid || !ConvertSidToStringSidA(sid, &text)) return std::nullopt;
  AccountId out(text);
  LocalFree(text);
  return out;
}

// The process token's information of one class, as bytes.
std::vector<unsigned char> token_information(TOKEN_INFORMATION_CLASS what) {
  HANDLE token = nullptr;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) return {};
  DWORD size = 0;
  GetTokenInformation(token, what, nullptr, 0, &size);
  std::vector<unsigned char> bytes(size);
  if (size == 0 || !GetTokenInformation(token, what, bytes.data(), size, &size)) bytes.clear();
  CloseHandle(token);
  return bytes;
}

}  // namespace

std::optional<AccountId> owner_of(const std::filesystem::path& path, LinkRule links) {
  // The object itself: FILE_FLAG_OPEN_REPARSE_POINT opens a link or junction, not what it names.
  const DWORD flags = FILE_FLAG_BACKUP_SEMANTICS | (links == LinkRule::itself ? FILE_FLAG_OPEN_REPARSE_POINT : 0);
  HANDLE handle = CreateFileW(path.c_str(), READ_CONTROL, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                              nullptr, OPEN_EXISTING, flags, nullptr);
  if (handle == INVALID_HANDLE_VALUE) return std::nullopt;
  PSID owner = nullptr;
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  const DWORD got = GetSecurityInfo(handle, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, &owner, nullptr, nullptr,
                                    nullptr, &descriptor);
  CloseHandle(handle);
  if (got != ERROR_SUCCESS) return std::nullopt;
  auto text = sid_text(owner);
  LocalFree(descriptor);
  return text;
}

AccountId current_account() {
  const auto bytes = token_information(TokenUser);
  if (bytes.empty()) return {};
  return sid_text(reinterpret_cast<const TOKEN_USER*>(bytes.data())->User.Sid).value_or("");
}

bool running_privileged() {
  if (current_account() == k_local_system_sid) return true;
  const auto bytes = token_information(TokenElevation);
  return !bytes.empty() && reinterpret_cast<const TOKEN_ELEVATION*>(bytes.data())->TokenIsElevated != 0;
}

Status give_to(const std::filesystem::path& path, const AccountId& owner) {
  PSID sid = nullptr;
  if (!ConvertStringSidToSidA(owner.c_str(), &sid))
    return make_error(ErrorCode::io,
                      "cannot give " + shown_path(path) + " to " + owner + ": " + windows_error_text(GetLastError()));
  // Setting another account as the owner needs SeRestorePrivilege, which an elevated administrator
  // and SYSTEM hold but must enable; without it Windows refuses, and the error says so.
  HANDLE token = nullptr;
  if (OpenProcessToken(GetCurrentProcess(), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, &token)) {
    TOKEN_PRIVILEGES privileges{};
    privileges.PrivilegeCount = 1;
    privileges.Privileges[0].Attributes = SE_PRIVILEGE_ENABLED;
    if (LookupPrivilegeValueW(nullptr, L"SeRestorePrivilege", &privileges.Privileges[0].Luid))
      AdjustTokenPrivileges(token, FALSE, &privileges, 0, nullptr, nullptr);
    CloseHandle(token);
  }
  std::wstring name = path.wstring();
  const DWORD set =
      SetNamedSecurityInfoW(name.data(), SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, sid, nullptr, nullptr, nullptr);
  LocalFree(sid);
  if (set != ERROR_SUCCESS)
    return make_error(ErrorCode::io,
                      "cannot give " + shown_path(path) + " to " + owner + ": " + windows_error_text(set));
  return {};
}

}  // namespace tfwsl
