; Inno Setup 6.3+ script: Processor Studio's Windows installer, made from the PyInstaller one-folder bundle.
;
; Built by packaging/windows/build_installer.py (called by `python packaging/build.py` on Windows), which passes
;   /DAppVersion=0.1.0 /DFileVersion=0.1.0.0 /DSourceDir=...\dist\processor-studio /DOutputDir=...\dist
;   /DIconFile=...\build\icons\processor-studio.ico
;
; Per-user install by default (no administrator rights needed; "Install for all users" is offered), into
; %LOCALAPPDATA%\Programs\Processor Studio (per user) or C:\Program Files\Processor Studio (all users).
; User data is NOT here: the app keeps threads and designs in %LOCALAPPDATA%\ProcessorStudio (platformdirs),
; which an upgrade or uninstall leaves alone; the app migrates its database on start, backing it up first.

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#ifndef FileVersion
  #define FileVersion "0.0.0.0"
#endif
#ifndef SourceDir
  #define SourceDir "..\..\dist\processor-studio"
#endif
#ifndef OutputDir
  #define OutputDir "..\..\dist"
#endif
#ifndef IconFile
  #define IconFile "..\..\build\icons\processor-studio.ico"
#endif
#define AppName "Processor Studio"
#define AppExe "processor-studio.exe"

[Setup]
; The AppId identifies the product across versions (upgrades replace, uninstall finds it): never change it.
AppId={{C4FB162C-BA6C-4F1B-B403-1B8CAA13E0AA}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppName}
VersionInfoVersion={#FileVersion}
VersionInfoProductName={#AppName}
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
; /CURRENTUSER and /ALLUSERS on the command line (the release workflow's silent install), or the dialog.
PrivilegesRequiredOverridesAllowed=commandline dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir={#OutputDir}
OutputBaseFilename=processor-studio-{#AppVersion}-windows-x64-setup
SetupIconFile={#IconFile}
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
; Close a running copy before replacing its files (and restart it afterwards when it was running).
CloseApplications=yes
RestartApplications=yes

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[InstallDelete]
; An upgrade must not mix two bundles: remove the previous version's program files (never the user's data).
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
