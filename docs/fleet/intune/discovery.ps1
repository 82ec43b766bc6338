# Intune custom compliance, discovery script (docs/fleet.md): prints tfwsl's flat facts as one
# JSON object on one line, which Intune tests against compliance-rules.json. Read-only.
$tfwsl = Join-Path $env:LOCALAPPDATA 'Microsoft\WinGet\Links\tfwsl.exe'
if (-not (Test-Path -LiteralPath $tfwsl)) { $tfwsl = 'tfwsl.exe' }
$teamProfile = 'C:\ProgramData\tfwsl\team-profile.yaml'

& $tfwsl doctor --compliance --profile $teamProfile
