# Intune remediation, detection script (docs/fleet.md). Runs tfwsl's doctor, read-only, and prints
# its one-line summary (Intune keeps the last line of output, at most 2,048 characters).
# Exit 0: the machine is healthy for the team's profile. Exit 1: the doctor found a problem, so
# Intune runs remediate.ps1. Deploy with "Run this script using the logged-on credentials": WSL and
# .wslconfig belong to the user.
$tfwsl = Join-Path $env:LOCALAPPDATA 'Microsoft\WinGet\Links\tfwsl.exe'
if (-not (Test-Path -LiteralPath $tfwsl)) { $tfwsl = 'tfwsl.exe' }
$teamProfile = 'C:\ProgramData\tfwsl\team-profile.yaml'

$line = & $tfwsl doctor --summary-line --profile $teamProfile
$code = $LASTEXITCODE
Write-Output $line
if ($code -eq 0) { exit 0 }
exit 1
