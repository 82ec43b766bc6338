# Intune remediation, detection script (docs/fleet.md). Runs tfwsl's doctor, read-only, and prints
# its one-line summary (Intune keeps the last line of output, at most 2,048 characters).
# Intune's contract: exit 1 runs remediate.ps1, exit 0 does not. Deploy with "Run this script using
# the logged-on credentials": WSL and .wslconfig belong to the user.
# --- tfwsl preamble: the same text in detect.ps1, remediate.ps1 and discovery.ps1 (Intune runs each
# script alone, so each carries it; tests/integration/fleet/intune_scripts_test.py keeps them equal) ---
# SYSTEM (the well-known SID S-1-5-18) runs these when no user is signed in or when "Run this script
# using the logged-on credentials" is off: it has neither the user's WSL distros nor the user's
# .wslconfig, so nothing it sees says anything about the user's set-up.
$isSystem = [Security.Principal.WindowsIdentity]::GetCurrent().User.Value -eq 'S-1-5-18'
$teamProfile = 'C:\ProgramData\tfwsl\team-profile.yaml'
# winget installs tfwsl (ArchiveBinariesDependOnPath) into a package folder it adds to PATH, and makes
# no WinGet\Links entry; a process started before that PATH change does not see it, so the package
# folders (user scope, then machine scope) come after PATH. Scoop's env_add_path is on PATH too.
$tfwsl = (Get-Command -Name 'tfwsl.exe' -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1).Path
if (-not $tfwsl) {
    $tfwsl = (Get-ChildItem -Path "$env:LOCALAPPDATA\Microsoft\WinGet\Packages\tfwsl.tfwsl_*\tfwsl.exe", "$env:ProgramFiles\WinGet\Packages\tfwsl.tfwsl_*\tfwsl.exe" -ErrorAction SilentlyContinue | Select-Object -First 1).FullName
}
$notSystem = 'tfwsl: not judged: this ran as SYSTEM (no user signed in, or not set to run with the logged-on credentials), and WSL and .wslconfig belong to the user'
$notInstalled = 'tfwsl is not installed: deploy the tfwsl package to this user (winget install tfwsl); this script does not install software'
# --- end of the tfwsl preamble ---

# Neither SYSTEM nor a missing tfwsl is something remediate.ps1 can fix: running it would only fail
# at every run. Both say why in the line Intune keeps.
if ($isSystem) { Write-Output $notSystem; exit 0 }
if (-not $tfwsl) { Write-Output $notInstalled; exit 0 }

$line = & $tfwsl doctor --summary-line --profile $teamProfile
$code = $LASTEXITCODE
Write-Output $line
# The doctor's exit code (docs/fleet.md) -> this script's: warnings only (1) need no remediation;
# a problem (2) or an internal error (3) does; anything else is treated as a problem.
$exitFor = @{ 0 = 0; 1 = 0; 2 = 1; 3 = 1 }
if ($exitFor.ContainsKey($code)) { exit $exitFor[$code] }
exit 1
