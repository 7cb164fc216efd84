<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>sd::CommandLine</name>
    <message numerus="yes">
        <source>Left %n suspected orphan(s): %1 (--include-suspected kills them too).
</source>
        <translation>
            <numerusform>Left %n suspected orphan: %1 (--include-suspected kills it too).
</numerusform>
            <numerusform>Left %n suspected orphans: %1 (--include-suspected kills them too).
</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::CreationHistoryView</name>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n orphan(s) killed</source>
        <translation>
            <numerusform>%1 · %n orphan killed</numerusform>
            <numerusform>%1 · %n orphans killed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::CreationJob</name>
    <message numerus="yes">
        <source>[first %n byte(s) of output cut]
</source>
        <translation>
            <numerusform>[first %n byte of output cut]
</numerusform>
            <numerusform>[first %n bytes of output cut]
</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The server may have created a sandbox: found %n, and not all could be removed</source>
        <translation>
            <numerusform>The server may have created a sandbox: found %n, and not all could be removed</numerusform>
            <numerusform>The server may have created a sandbox: found %n, and not all could be removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The server may have created a sandbox: found and removed %n</source>
        <translation>
            <numerusform>The server may have created a sandbox: found and removed %n</numerusform>
            <numerusform>The server may have created a sandbox: found and removed %n</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::CreationJournal</name>
    <message numerus="yes">
        <source>The journal had %n unreadable line(s); it was moved to %1 and its readable records were kept</source>
        <translation>
            <numerusform>The journal had %n unreadable line; it was moved to %1 and its readable records were kept</numerusform>
            <numerusform>The journal had %n unreadable lines; it was moved to %1 and its readable records were kept</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The journal %1 is held by another process that has not released it for %n second(s). It may be stopped (Ctrl+Z) or hung: resume it or end it, then try again.</source>
        <translation>
            <numerusform>The journal %1 is held by another process that has not released it for %n second. It may be stopped (Ctrl+Z) or hung: resume it or end it, then try again.</numerusform>
            <numerusform>The journal %1 is held by another process that has not released it for %n seconds. It may be stopped (Ctrl+Z) or hung: resume it or end it, then try again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The journal %1 is held by another process (pid %2, %3) that has not released it for %n second(s). It may be stopped (Ctrl+Z) or hung: resume it (fg, or kill -CONT %2) or end it, then try again.</source>
        <translation>
            <numerusform>The journal %1 is held by another process (pid %2, %3) that has not released it for %n second. It may be stopped (Ctrl+Z) or hung: resume it (fg, or kill -CONT %2) or end it, then try again.</numerusform>
            <numerusform>The journal %1 is held by another process (pid %2, %3) that has not released it for %n seconds. It may be stopped (Ctrl+Z) or hung: resume it (fg, or kill -CONT %2) or end it, then try again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The journal had %n unreadable line(s), skipped; it is repaired when no other process is writing it</source>
        <translation>
            <numerusform>The journal had %n unreadable line, skipped; it is repaired when no other process is writing it</numerusform>
            <numerusform>The journal had %n unreadable lines, skipped; it is repaired when no other process is writing it</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::CreationsPanel</name>
    <message numerus="yes">
        <source>Creations running: %n (they end in the creations history, Ctrl+H)</source>
        <translation>
            <numerusform>Creations running: %n (it ends in the creations history, Ctrl+H)</numerusform>
            <numerusform>Creations running: %n (they end in the creations history, Ctrl+H)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::DetailPane</name>
    <message numerus="yes">
        <source>%n vCPU</source>
        <translation>
            <numerusform>%n vCPU</numerusform>
            <numerusform>%n vCPUs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::KillOrphansJob</name>
    <message numerus="yes">
        <source>%n orphan(s) could not be removed</source>
        <translation>
            <numerusform>%n orphan could not be removed</numerusform>
            <numerusform>%n orphans could not be removed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::MainWindow</name>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pausing %n sandbox(es)…</source>
        <translation>
            <numerusform>Pausing %n sandbox…</numerusform>
            <numerusform>Pausing %n sandboxes…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Paused %n sandbox(es).</source>
        <translation>
            <numerusform>Paused %n sandbox.</numerusform>
            <numerusform>Paused %n sandboxes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Resuming %n sandbox(es)…</source>
        <translation>
            <numerusform>Resuming %n sandbox…</numerusform>
            <numerusform>Resuming %n sandboxes…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Resumed %n sandbox(es).</source>
        <translation>
            <numerusform>Resumed %n sandbox.</numerusform>
            <numerusform>Resumed %n sandboxes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Still rolling back %n creation(s). Quitting now leaves what they created running until its timeout; it will be flagged as an orphan on the next start.</source>
        <translation>
            <numerusform>Still rolling back %n creation. Quitting now leaves what it created running until its timeout; it will be flagged as an orphan on the next start.</numerusform>
            <numerusform>Still rolling back %n creations. Quitting now leaves what they created running until its timeout; it will be flagged as an orphan on the next start.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Quitting: cancelling %n creation(s) and removing what they created…</source>
        <translation>
            <numerusform>Quitting: cancelling %n creation and removing what it created…</numerusform>
            <numerusform>Quitting: cancelling %n creations and removing what they created…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No orphan is certainly ours; %n is only suspected.</source>
        <translation>
            <numerusform>No orphan is certainly ours; %n is only suspected.</numerusform>
            <numerusform>No orphan is certainly ours; %n are only suspected.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Kill %n orphan sandbox(es)?</source>
        <translation>
            <numerusform>Kill %n orphan sandbox?</numerusform>
            <numerusform>Kill %n orphan sandboxes?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Also kill the %n &amp;suspected one(s)</source>
        <translation>
            <numerusform>Also kill the %n &amp;suspected one</numerusform>
            <numerusform>Also kill the %n &amp;suspected ones</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Killing %n orphan(s)…</source>
        <translation>
            <numerusform>Killing %n orphan…</numerusform>
            <numerusform>Killing %n orphans…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Killed %n orphan(s).</source>
        <translation>
            <numerusform>Killed %n orphan.</numerusform>
            <numerusform>Killed %n orphans.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n orphan(s)</source>
        <translation>
            <numerusform>%n orphan</numerusform>
            <numerusform>%n orphans</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sandboxes selected.</source>
        <translation>
            <numerusform>%n sandbox selected.</numerusform>
            <numerusform>%n sandboxes selected.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Kill %n sandbox(es)? Everything running in them is lost.</source>
        <translation>
            <numerusform>Kill %n sandbox? Everything running in it is lost.</numerusform>
            <numerusform>Kill %n sandboxes? Everything running in them is lost.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Killing %n sandbox(es)…</source>
        <translation>
            <numerusform>Killing %n sandbox…</numerusform>
            <numerusform>Killing %n sandboxes…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Killed %n sandbox(es).</source>
        <translation>
            <numerusform>Killed %n sandbox.</numerusform>
            <numerusform>Killed %n sandboxes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Extending %n sandbox(es)…</source>
        <translation>
            <numerusform>Extending %n sandbox…</numerusform>
            <numerusform>Extending %n sandboxes…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sandbox(es) now end in %1 minutes.</source>
        <translation>
            <numerusform>%n sandbox now ends in %1 minutes.</numerusform>
            <numerusform>%n sandboxes now end in %1 minutes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Time left for %n sandbox(es), in minutes from now (at most %1):</source>
        <translation>
            <numerusform>Time left for %n sandbox, in minutes from now (at most %1):</numerusform>
            <numerusform>Time left for %n sandboxes, in minutes from now (at most %1):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This shortens the time of %n sandbox(es): each ends in %1 minutes, sooner than it would now.</source>
        <translation>
            <numerusform>This shortens the time of %n sandbox: it ends in %1 minutes, sooner than it would now.</numerusform>
            <numerusform>This shortens the time of %n sandboxes: each ends in %1 minutes, sooner than it would now.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::NewSandboxDialog</name>
    <message numerus="yes">
        <source>Search %n server(s)</source>
        <translation>
            <numerusform>Search %n server</numerusform>
            <numerusform>Search %n servers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s) from the MCP check.</source>
        <translation>
            <numerusform>%n warning from the MCP check.</numerusform>
            <numerusform>%n warnings from the MCP check.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::OrphanDetector</name>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n minute</numerusform>
            <numerusform>%n minutes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Our creation %1 asked for MCP (%2); the sandbox has been up for %3 and no mcp-gateway process runs in it (envd lists %n process(es)): its gateway is gone.</source>
        <translation>
            <numerusform>Our creation %1 asked for MCP (%2); the sandbox has been up for %3 and no mcp-gateway process runs in it (envd lists %n process): its gateway is gone.</numerusform>
            <numerusform>Our creation %1 asked for MCP (%2); the sandbox has been up for %3 and no mcp-gateway process runs in it (envd lists %n processes): its gateway is gone.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Suspected: not created by this app (no journal record), template %1, up for %2, and no mcp-gateway process runs in it (envd lists %n process(es)), as older SDKs leave a sandbox whose MCP gateway failed to start. It may still be in use.</source>
        <translation>
            <numerusform>Suspected: not created by this app (no journal record), template %1, up for %2, and no mcp-gateway process runs in it (envd lists %n process), as older SDKs leave a sandbox whose MCP gateway failed to start. It may still be in use.</numerusform>
            <numerusform>Suspected: not created by this app (no journal record), template %1, up for %2, and no mcp-gateway process runs in it (envd lists %n processes), as older SDKs leave a sandbox whose MCP gateway failed to start. It may still be in use.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::SessionLogView</name>
    <message numerus="yes">
        <source>Copied %n message(s) to the clipboard.</source>
        <translation>
            <numerusform>Copied %n message to the clipboard.</numerusform>
            <numerusform>Copied %n messages to the clipboard.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) of this session</source>
        <translation>
            <numerusform>%n message of this session</numerusform>
            <numerusform>%n messages of this session</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n older one(s) no longer kept</source>
        <translation>
            <numerusform>%n older one no longer kept</numerusform>
            <numerusform>%n older ones no longer kept</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::TrayIcon</name>
    <message numerus="yes">
        <source>%n sandbox(es) left behind by failed creations: %1</source>
        <translation>
            <numerusform>%n sandbox left behind by failed creations: %1</numerusform>
            <numerusform>%n sandboxes left behind by failed creations: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Sandbox Desk: %n orphan(s)</source>
        <translation>
            <numerusform>Sandbox Desk: %n orphan</numerusform>
            <numerusform>Sandbox Desk: %n orphans</numerusform>
        </translation>
    </message>
</context>
</TS>
