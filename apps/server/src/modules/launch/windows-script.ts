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
# Fetch: $true on 200; a refusal (401/403) logs the console's message and exits ${REFUSED_EXIT}.
function Fetch($Uri, $Out) {
  try { Invoke-WebRequest -UseBasicParsing -Uri $Uri -OutFile $Out -TimeoutSec 600; return $true }
  catch {
    $code = 0; if ($_.Exception.Response) { $code = [int]$_.Exception.Response.StatusCode }
    $msg = if ($_.ErrorDetails -and $_.ErrorDetails.Message) { $_.ErrorDetails.Message } else { $_.Exception.Message }
    if ($code -eq 401 -or $code -eq 403) { Say $msg; exit ${REFUSED_EXIT} }
    Say ("控制台答复 HTTP " + $code + "：" + $msg); return $false
  }
}
$Arch = switch ($env:PROCESSOR_ARCHITECTURE) { 'ARM64' { 'arm64' } 'x86' { '386' } default { 'amd64' } }
$Frpc = Join-Path $Dir 'frpc.exe'
$SumFile = Join-Path $Dir 'frpc.sum'
$Source = Join-Path $Dir 'frpc.source'
if (Fetch "$Api/frpc?os=windows&arch=$Arch" $Source) {
  $Sum, $Url = (Get-Content -Raw $Source).Trim() -split '\\s+', 2
  $have = if (Test-Path $SumFile) { (Get-Content -Raw $SumFile).Trim() -split '\\s+' } else { @('', '') }
  $bin = if (Test-Path $Frpc) { (Get-FileHash -Algorithm SHA256 $Frpc).Hash.ToLower() } else { '' }
  if ($have[0] -ne $Sum -or $have[1] -ne $bin -or -not $bin) {
    Say ("下载 frpc（windows/" + $Arch + "）：" + $Url)
    $Download = Join-Path $Dir 'download'
    if (-not (Fetch $Url $Download)) { exit 2 }
    $got = (Get-FileHash -Algorithm SHA256 $Download).Hash.ToLower()
    if ($got -ne $Sum) { Remove-Item -Force $Download; Say ("frpc 校验失败：SHA-256 应为 " + $Sum + "，下载所得为 " + $got + "。已拒绝运行"); exit ${REFUSED_EXIT} }
    $Unpack = Join-Path $Dir 'unpack'
    Remove-Item -Recurse -Force -ErrorAction SilentlyContinue $Unpack
    if (($Url -split '[?#]')[0] -like '*.zip') {
      Expand-Archive -Force -Path $Download -DestinationPath $Unpack
      $found = Get-ChildItem -Recurse -File -Filter 'frpc.exe' $Unpack | Select-Object -First 1
      if (-not $found) { Say '下载的文件中没有 frpc.exe'; exit ${REFUSED_EXIT} }
      Move-Item -Force $found.FullName $Frpc
      Remove-Item -Force $Download
    } else { Move-Item -Force $Download $Frpc }
    Remove-Item -Recurse -Force -ErrorAction SilentlyContinue $Unpack
    Set-Content -Path $SumFile -Value ($Sum + ' ' + (Get-FileHash -Algorithm SHA256 $Frpc).Hash.ToLower())
  }
} elseif (-not (Test-Path $Frpc)) { exit 2 } else { Say '沿用已下载的 frpc' }
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
 * %ProgramData%\\Burrow\\node-<id> (readable by SYSTEM and administrators only: it holds the
 * token) and registers it as a scheduled task at startup running as SYSTEM, restarted on failure.
 */
export function installPs1(t: LaunchTarget): string {
  const name = serviceName(t);
  return `# Burrow 一键启动安装脚本 (docs/launch.md)
$ErrorActionPreference = 'Stop'
$Dir = Join-Path $env:ProgramData ${psq(`Burrow\\node-${t.nodeId}`)}
New-Item -ItemType Directory -Force -Path $Dir | Out-Null
icacls $Dir /inheritance:r /grant:r '*S-1-5-18:(OI)(CI)F' '*S-1-5-32-544:(OI)(CI)F' | Out-Null
$Start = Join-Path $Dir 'frpc-start.ps1'
Set-Content -Path $Start -Encoding UTF8 -Value @'
${startPs1(t)}'@
$Action = New-ScheduledTaskAction -Execute 'powershell.exe' -Argument ('-NoProfile -ExecutionPolicy Bypass -File "' + $Start + '"')
$Trigger = New-ScheduledTaskTrigger -AtStartup
$Settings = New-ScheduledTaskSettingsSet -StartWhenAvailable -RestartCount 999 -RestartInterval (New-TimeSpan -Minutes 1) -ExecutionTimeLimit ([TimeSpan]::Zero)
$Principal = New-ScheduledTaskPrincipal -UserId 'SYSTEM' -LogonType ServiceAccount -RunLevel Highest
Register-ScheduledTask -Force -TaskName ${psq(name)} -Action $Action -Trigger $Trigger -Settings $Settings -Principal $Principal -Description ${psq(oneLine(`Burrow frpc（节点 ${t.nodeName ?? t.nodeId}）`))} | Out-Null
Stop-ScheduledTask -TaskName ${psq(name)} -ErrorAction SilentlyContinue
Start-ScheduledTask -TaskName ${psq(name)}
Write-Host ${psq(`已安装并启动计划任务 ${name}；日志：`)} (Join-Path $Dir 'frpc-start.log')
`;
}
