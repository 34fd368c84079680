# Windows: sign files with Authenticode (signtool, SHA-256, RFC 3161 timestamp) when the release workflow has the
# certificate secrets; without them, log one line saying so and exit 0, so a maintainer who adds a certificate gets
# signed installers without editing the workflow.
#
#   pwsh packaging/windows/sign.ps1 dist\processor-studio\processor-studio.exe      (before the installer)
#   pwsh packaging/windows/sign.ps1 dist\processor-studio-0.1.0-windows-x64-setup.exe
#
# Needs WINDOWS_CERTIFICATE (the .pfx, base64) and WINDOWS_CERTIFICATE_PASSWORD in the environment;
# WINDOWS_TIMESTAMP_URL overrides the timestamp server.
param([Parameter(Mandatory = $true, ValueFromRemainingArguments = $true)][string[]]$Files)
$ErrorActionPreference = "Stop"

if (-not $env:WINDOWS_CERTIFICATE -or -not $env:WINDOWS_CERTIFICATE_PASSWORD) {
    Write-Output "windows sign: no WINDOWS_CERTIFICATE / WINDOWS_CERTIFICATE_PASSWORD secrets — skipped; files stay unsigned (SmartScreen warns, see README)"
    exit 0
}
$kits = Join-Path ${env:ProgramFiles(x86)} "Windows Kits\10\bin"
$signtool = Get-ChildItem -Path $kits -Recurse -Filter signtool.exe -ErrorAction SilentlyContinue |
    Where-Object { $_.FullName -match "\\x64\\" } | Sort-Object FullName -Descending | Select-Object -First 1
if (-not $signtool) { throw "windows sign: signtool.exe not found under $kits (install the Windows SDK)" }
$timestamp = if ($env:WINDOWS_TIMESTAMP_URL) { $env:WINDOWS_TIMESTAMP_URL } else { "http://timestamp.digicert.com" }
$pfx = Join-Path $env:RUNNER_TEMP "signing-$([guid]::NewGuid()).pfx"
try {
    [IO.File]::WriteAllBytes($pfx, [Convert]::FromBase64String($env:WINDOWS_CERTIFICATE))
    foreach ($file in $Files) {
        & $signtool.FullName sign /fd SHA256 /td SHA256 /tr $timestamp /f $pfx /p $env:WINDOWS_CERTIFICATE_PASSWORD $file
        if ($LASTEXITCODE -ne 0) { throw "windows sign: signtool failed on $file" }
        & $signtool.FullName verify /pa $file
        if ($LASTEXITCODE -ne 0) { throw "windows sign: the signature of $file does not verify" }
        Write-Output "windows sign: signed $file"
    }
} finally {
    Remove-Item -Force -ErrorAction SilentlyContinue $pfx
}
