# Intune remediation, remediation script (docs/fleet.md). Applies the team's set-up through tfwsl's
# own commands, each of which checks before it changes anything and changes only what differs:
# the .wslconfig memory (backup, atomic write), then the team's profile (tfwsl provision). Prints
# the doctor's one-line summary last, which Intune keeps. Exit 0 when the doctor is then healthy.
$tfwsl = Join-Path $env:LOCALAPPDATA 'Microsoft\WinGet\Links\tfwsl.exe'
if (-not (Test-Path -LiteralPath $tfwsl)) { $tfwsl = 'tfwsl.exe' }
$teamProfile = 'C:\ProgramData\tfwsl\team-profile.yaml'
$memory = '16GB'

& $tfwsl wslconfig set "memory=$memory" --yes --json | Out-Null
& $tfwsl provision --yes --json --profile $teamProfile | Out-Null
$line = & $tfwsl doctor --summary-line --profile $teamProfile
$code = $LASTEXITCODE
Write-Output $line
if ($code -eq 0) { exit 0 }
exit 1
