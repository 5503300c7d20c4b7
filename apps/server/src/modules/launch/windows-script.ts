import { oneLine, psq } from "../../shared/quote";
import { type LaunchTarget, launchBase, REFUSED_EXIT, serviceName } from "./posix-scripts";

/**
 * The Windows start script (PowerShell 5.1 and 7), run by a scheduled task at every start:
 * the same steps as the POSIX wrapper (posix-scripts.ts startScript), with Invoke-WebRequest and
 * Get-FileHash. Logs to frpc-start.log beside it.
 */
function startPs1(t: LaunchTarget): string {
  return `# Burrow 一键启动 (docs/launch.md): node ${t.nodeId}${t.nodeName ? `, ${oneLine(t.nodeName)}` : ""}
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
[Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
$Api = ${psq(launchBase(t))}
$Dir = Split-Path -Parent $MyInvocation.MyCommand.Path
$Log = Join-Path $Dir 'frpc-start.log'
function Say($m) { Add-Content -Path $Log -Value ((Get-Date -Format s) + ' ' + $m) -Encoding UTF8; [Console]::Error.WriteLine('burrow: ' + $m) }
# Fetch: $true on 200; the console's refusal (401/403) logs its message and exits ${REFUSED_EXIT}
# (-NotFinal: the frpc download, where a 401/403 is the file host's, not the console's).
function Fetch($Uri, $Out, [switch]$NotFinal) {
  try { Invoke-WebRequest -UseBasicParsing -Uri $Uri -OutFile $Out -TimeoutSec 600; return $true }
  catch {
    $code = 0; if ($_.Exception.Response) { $code = [int]$_.Exception.Response.StatusCode }
    $msg = if ($_.ErrorDetails -and $_.ErrorDetails.Message) { $_.ErrorDetails.Message } else { $_.Exception.Message }
    $msg = $msg -replace '[\\x00-\\x08\\x0B-\\x1F\\x7F]', ''
    if (-not $NotFinal -and ($code -eq 401 -or $code -eq 403)) { Say $msg; exit ${REFUSED_EXIT} }
    Say ("控制台答复 HTTP " + $code + "：" + $msg); return $false
  }
}
$Arch = switch ($env:PROCESSOR_ARCHITECTURE) { 'ARM64' { 'arm64' } 'x86' { '386' } default { 'amd64' } }
$Frpc = Join-Path $Dir 'frpc.exe'
$SumFile = Join-Path $Dir 'frpc.sum'
$Source = Join-Path $Dir 'frpc.source'
$Download = Join-Path $Dir 'download'
$Unpack = Join-Path $Dir 'unpack'
# the frpc that passed its checksum when downloaded, still the same file
$have = if (Test-Path $SumFile) { @((Get-Content -Raw $SumFile).Trim() -split '\\s+') + @('', '') } else { @('', '') }
function Cached { (Test-Path $Frpc) -and $have[1] -and (Get-FileHash -Algorithm SHA256 $Frpc).Hash.ToLower() -eq $have[1] }
# Keep: a download is unusable (not final: a stale copy, a checksum row being corrected): the cached
# verified frpc runs, with a warning; without one, exit 2 (the task retries)
function Keep($why) {
  Remove-Item -Recurse -Force -ErrorAction SilentlyContinue $Download, $Unpack
  if (Cached) { Say ("警告：" + $why + "。沿用此前校验通过的 frpc") } else { Say $why; exit 2 }
}
if (Fetch "$Api/frpc?os=windows&arch=$Arch" $Source) {
  $Sum, $Url = (Get-Content -Raw $Source).Trim() -split '\\s+', 2
  if ($have[0] -ne $Sum -or -not (Cached)) {
    Say ("下载 frpc（windows/" + $Arch + "）：" + $Url)
    if (-not (Fetch $Url $Download -NotFinal)) { Keep '下载 frpc 失败' }
    else {
      $got = (Get-FileHash -Algorithm SHA256 $Download).Hash.ToLower()
      if ($got -ne $Sum) { Keep ("frpc 校验失败：SHA-256 应为 " + $Sum + "，下载所得为 " + $got + "，下载的文件已删除、不会运行（请联系运营方）") }
      else {
        Remove-Item -Recurse -Force -ErrorAction SilentlyContinue $Unpack
        $found = $Download
        if (($Url -split '[?#]')[0] -like '*.zip') {
          Expand-Archive -Force -Path $Download -DestinationPath $Unpack
          $found = (Get-ChildItem -Recurse -File -Filter 'frpc.exe' $Unpack | Select-Object -First 1).FullName
        }
        if (-not $found) { Keep '下载的文件中没有 frpc.exe' }
        else {
          Move-Item -Force $found $Frpc
          Remove-Item -Recurse -Force -ErrorAction SilentlyContinue $Download, $Unpack
          Set-Content -Path $SumFile -Value ($Sum + ' ' + (Get-FileHash -Algorithm SHA256 $Frpc).Hash.ToLower())
        }
      }
    }
  }
} elseif (Cached) { Say '沿用已下载的 frpc' } else { exit 2 }
$Toml = Join-Path $Dir 'frpc.toml'
if (Fetch "$Api/frpc.toml" "$Toml.new") { Move-Item -Force "$Toml.new" $Toml }
elseif (-not (Test-Path $Toml)) { exit 2 } else { Say '沿用上次获取的配置' }
Say ("已获取节点 " + ${psq(t.nodeId)} + " 的最新配置，启动 frpc")
& $Frpc -c $Toml
exit $LASTEXITCODE
`;
}

/**
 * install.ps1 (run as administrator: `irm …/install.ps1 | iex`): writes the start script to
 * %ProgramFiles%\\Burrow\\node-<id> (owned by Administrators, readable by SYSTEM and administrators
 * only: it holds the token; F1 of review R1) and registers it as a scheduled task at startup running as SYSTEM, restarted on failure.
 */
export function installPs1(t: LaunchTarget): string {
  const name = serviceName(t);
  return `# Burrow 一键启动安装脚本 (docs/launch.md)
$ErrorActionPreference = 'Stop'
# Program Files: only administrators may create folders there (under ProgramData any user may, and
# keep rights over what the SYSTEM task later runs). Whatever the folder: one that exists with
# another owner is removed and made again, then owned by Administrators with only SYSTEM and
# Administrators in its ACL (nothing inherited).
$Root = Join-Path $env:ProgramFiles 'Burrow'
$Dir = Join-Path $Root ${psq(`node-${t.nodeId}`)}
$Admins = New-Object Security.Principal.SecurityIdentifier 'S-1-5-32-544'
$System = New-Object Security.Principal.SecurityIdentifier 'S-1-5-18'
# Drop: rmdir /s removes a junction or directory link without entering it (PowerShell 5.1's
# Remove-Item -Recurse may delete what a planted link points at, as administrator)
function Drop($p) {
  if (Test-Path -LiteralPath $p -PathType Container) { cmd.exe /d /c rmdir /s /q "$p" } else { Remove-Item -LiteralPath $p -Force }
  if (Test-Path -LiteralPath $p) { throw ('无法删除 ' + $p) }
}
function Owned($p) { $o = (Get-Acl -LiteralPath $p).GetOwner([Security.Principal.SecurityIdentifier]); $o -eq $Admins -or $o -eq $System }
foreach ($d in @($Root, $Dir)) {
  if ((Test-Path -LiteralPath $d) -and -not (Owned $d)) { Drop $d }
  if (-not (Test-Path -LiteralPath $d)) { New-Item -ItemType Directory -Path $d | Out-Null }
  $acl = New-Object Security.AccessControl.DirectorySecurity
  $acl.SetOwner($Admins)
  $acl.SetAccessRuleProtection($true, $false)
  foreach ($sid in @($System, $Admins)) {
    $acl.AddAccessRule((New-Object Security.AccessControl.FileSystemAccessRule($sid, 'FullControl', 'ContainerInherit,ObjectInherit', 'None', 'Allow')))
  }
  Set-Acl -LiteralPath $d -AclObject $acl
}
# files left by someone else inside (an older install's folder) go
Get-ChildItem -LiteralPath $Dir -Force | Where-Object { -not (Owned $_.FullName) } | ForEach-Object { Drop $_.FullName }
$Start = Join-Path $Dir 'frpc-start.ps1'
Set-Content -Path $Start -Encoding UTF8 -Value @'
${startPs1(t)}'@
$Action = New-ScheduledTaskAction -Execute 'powershell.exe' -Argument ('-NoProfile -ExecutionPolicy Bypass -File "' + $Start + '"')
$Trigger = New-ScheduledTaskTrigger -AtStartup
$Settings = New-ScheduledTaskSettingsSet -StartWhenAvailable -RestartCount 999 -RestartInterval (New-TimeSpan -Minutes 1) -ExecutionTimeLimit ([TimeSpan]::Zero)
$Principal = New-ScheduledTaskPrincipal -UserId 'SYSTEM' -LogonType ServiceAccount -RunLevel Highest
Register-ScheduledTask -Force -TaskName ${psq(name)} -Action $Action -Trigger $Trigger -Settings $Settings -Principal $Principal -Description ${psq(oneLine(`Burrow frpc（节点 ${t.nodeName ?? t.nodeId}）`))} | Out-Null
# an earlier install's files under ProgramData holding the token go (the files by name: a folder
# there may be anyone's): the task now runs the new folder
$Old = Join-Path $env:ProgramData ${psq(`Burrow\\node-${t.nodeId}`)}
foreach ($f in @('frpc-start.ps1', 'frpc.toml', 'frpc.toml.new')) { Remove-Item -LiteralPath (Join-Path $Old $f) -Force -ErrorAction SilentlyContinue }
Stop-ScheduledTask -TaskName ${psq(name)} -ErrorAction SilentlyContinue
Start-ScheduledTask -TaskName ${psq(name)}
Write-Host ${psq(`已安装并启动计划任务 ${name}；日志：`)} (Join-Path $Dir 'frpc-start.log')
`;
}
