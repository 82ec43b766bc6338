#pragma once
// Who owns a file, who runs this process, and whether it runs privileged: the facts behind the
// rules for privileged writes in another user's folder (privileged_target.hpp) and for which
// discovered files may be trusted (profile discovery, as git's safe.directory). An account is a
// string so both platforms share one type: the uid in decimal on POSIX ("1000", "0"), the SID
// in its string form on Windows ("S-1-5-21-...-1001", "S-1-5-18").
//
// POSIX: lstat(2)'s st_uid, geteuid(2), lchown(2) (file_owner_posix.cpp). Windows: the owner of the
// object itself (opened with FILE_FLAG_OPEN_REPARSE_POINT, GetSecurityInfo OWNER_SECURITY_INFORMATION),
// the token's user (GetTokenInformation TokenUser), TokenElevation, SetNamedSecurityInfoW
// (file_owner_windows.cpp).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl {

using AccountId = std::string;

// Windows' well-known SIDs that own system files (a file they own is no user's plant).
inline constexpr const char* k_local_system_sid = "S-1-5-18";
inline constexpr const char* k_administrators_sid = "S-1-5-32-544";
// POSIX's root.
inline constexpr const char* k_root_uid = "0";

enum class LinkRule { itself, follow };

// The owner of `path` itself (a link's own owner), or with LinkRule::follow of the file a link
// names. Nothing when it cannot be read (missing, or no security information, as under some Wine setups).
std::optional<AccountId> owner_of(const std::filesystem::path& path, LinkRule links = LinkRule::itself);

// The owner of `path` itself and, when it is a link, of the file it names too (once when they are
// the same account): who had a say in what reading `path` gives. Empty when no owner can be read.
std::vector<AccountId> owners_of(const std::filesystem::path& path);

// The account this process acts as (the effective uid; the token's user).
AccountId current_account();

// Root (euid 0) on POSIX; on Windows an elevated token or SYSTEM: an account that may write where
// the user who owns a folder did not mean it to.
bool running_privileged();

// Whether a file `owner` owns may be trusted by `me`: its own, root's, SYSTEM's or the
// Administrators group's (a plain user can make none of those the owner of a file it plants).
bool is_trusted_owner(const AccountId& owner, const AccountId& me);

// Makes `owner` the owner of `path` itself (not a link's target). Used by a privileged run so the
// file it writes in a user's folder stays the user's.
Status give_to(const std::filesystem::path& path, const AccountId& owner);

}  // namespace tfwsl
