# Intune custom compliance, discovery script (docs/fleet.md): prints tfwsl's flat facts as one
# JSON object on one line, which Intune tests against compliance-rules.json. Read-only.
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
# Without tfwsl: the facts of a machine that has not got it, so the tfwsl_installed rule says why.
$missingFacts = '{"tfwsl_installed":false,"tf_gpu_visible":false,"nvidia_driver_meets_profile":false,"wsl_default_version_2":false,"wslconfig_memory_set":false}'

# As SYSTEM there are no facts about the user to report: no JSON, an error instead, so Intune records
# a failed discovery rather than a machine that is not compliant.
if ($isSystem) { [Console]::Error.WriteLine($notSystem); exit 1 }
if (-not $tfwsl) { Write-Output $missingFacts; exit 0 }

& $tfwsl doctor --compliance --profile $teamProfile
# The rules judge the facts, whatever the doctor's exit code (warnings only leave every rule true).
exit 0
