<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>EnvelopeDecoder</name>
    <message>
        <source>the sandbox sent data after the end of the stream</source>
        <translation>die Sandbox hat nach dem Ende des Datenstroms weitere Daten gesendet</translation>
    </message>
    <message>
        <source>the sandbox sent a message of %1 bytes, more than the limit of 16 MiB</source>
        <translation>die Sandbox hat eine Nachricht von %1 Byte gesendet, mehr als die Grenze von 16 MiB</translation>
    </message>
    <message>
        <source>the sandbox sent a compressed message, which is not supported</source>
        <translation>die Sandbox hat eine komprimierte Nachricht gesendet; das wird nicht unterstützt</translation>
    </message>
    <message>
        <source>the sandbox sent a message that is not valid JSON (%1 at offset %2)</source>
        <translation>die Sandbox hat eine Nachricht gesendet, die kein gültiges JSON ist (%1 an Position %2)</translation>
    </message>
    <message>
        <source>the sandbox sent a message that is not a JSON object</source>
        <translation>die Sandbox hat eine Nachricht gesendet, die kein JSON-Objekt ist</translation>
    </message>
    <message>
        <source>the sandbox closed the connection in the middle of a message header</source>
        <translation>die Sandbox hat die Verbindung mitten in einem Nachrichtenkopf geschlossen</translation>
    </message>
    <message>
        <source>a message announced %1 bytes but the body ended after %2</source>
        <translation>eine Nachricht kündigte %1 Byte an, ihr Inhalt endete aber nach %2</translation>
    </message>
    <message>
        <source>the sandbox closed the connection early</source>
        <translation>die Sandbox hat die Verbindung vorzeitig geschlossen</translation>
    </message>
    <message>
        <source>the sandbox sent a process message without an event</source>
        <translation>die Sandbox hat eine Prozessnachricht ohne Ereignis gesendet</translation>
    </message>
    <message>
        <source>the sandbox sent %1 output that is not valid base64</source>
        <translation>die Sandbox hat %1-Ausgabe gesendet, die kein gültiges Base64 ist</translation>
    </message>
</context>
<context>
    <name>McpConfigCheck</name>
    <message>
        <source>The MCP configuration is not valid JSON: %1 at line %2, column %3. Fix the JSON there; it must be an object like {&quot;server&quot;: {&quot;option&quot;: &quot;value&quot;}}.</source>
        <translation>Die MCP-Konfiguration ist kein gültiges JSON: %1 in Zeile %2, Spalte %3. Korrigieren Sie das JSON an dieser Stelle; es muss ein Objekt wie {&quot;server&quot;: {&quot;option&quot;: &quot;value&quot;}} sein.</translation>
    </message>
    <message>
        <source>The MCP configuration must be a JSON object mapping server names to their options, like {&quot;server&quot;: {&quot;option&quot;: &quot;value&quot;}}, but it is %1.</source>
        <translation>Die MCP-Konfiguration muss ein JSON-Objekt sein, das Servernamen ihre Optionen zuordnet, etwa {&quot;server&quot;: {&quot;option&quot;: &quot;value&quot;}}, ist aber %1.</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>ein Array</translation>
    </message>
    <message>
        <source>a single value</source>
        <translation>ein einzelner Wert</translation>
    </message>
    <message>
        <source>The settings of the MCP server &quot;%1&quot; must be a JSON object of options, like {&quot;option&quot;: &quot;value&quot;}, but they are %2. Put its options in braces.</source>
        <translation>Die Einstellungen des MCP-Servers „%1“ müssen ein JSON-Objekt mit Optionen sein, etwa {&quot;option&quot;: &quot;value&quot;}, sind aber %2. Setzen Sie seine Optionen in geschweifte Klammern.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an MCP server in the catalog, so its options cannot be checked; the gateway may not be able to start it.</source>
        <translation>„%1“ ist kein MCP-Server aus dem Katalog, daher können seine Optionen nicht geprüft werden; das Gateway kann ihn möglicherweise nicht starten.</translation>
    </message>
    <message>
        <source>Did you mean &quot;%1&quot;? Server names are case-sensitive.</source>
        <translation>Meinten Sie „%1“? Bei Servernamen wird die Groß- und Kleinschreibung beachtet.</translation>
    </message>
    <message>
        <source>Check the spelling of the server name.</source>
        <translation>Prüfen Sie die Schreibweise des Servernamens.</translation>
    </message>
    <message>
        <source>The MCP server &quot;%1&quot; (%2) is missing required options: %3. Add them to its settings.</source>
        <translation>Dem MCP-Server „%1“ (%2) fehlen erforderliche Optionen: %3. Ergänzen Sie sie in seinen Einstellungen.</translation>
    </message>
    <message>
        <source>The MCP server &quot;%1&quot; has no option &quot;%2&quot; in the catalog; it is passed on unchecked. Check its spelling or remove it.</source>
        <translation>Der MCP-Server „%1“ hat laut Katalog keine Option „%2“; sie wird ungeprüft weitergegeben. Prüfen Sie ihre Schreibweise oder entfernen Sie sie.</translation>
    </message>
    <message>
        <source>The option &quot;%1&quot; of the MCP server &quot;%2&quot; must be of type %3, but it is %4. Change its value to the right type.</source>
        <translation>Die Option „%1“ des MCP-Servers „%2“ muss vom Typ %3 sein, ist aber %4. Ändern Sie ihren Wert in den richtigen Typ.</translation>
    </message>
    <message>
        <source>an array holding other values</source>
        <translation>ein Array mit anderen Werten</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Sandbox Desk</source>
        <translation>Sandbox Desk</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>sandbox-desk: the window could not be started (%1). Is Sandbox Desk fully installed? The command-line mode works without it: sandbox-desk --help</source>
        <translation>sandbox-desk: Das Fenster konnte nicht gestartet werden (%1). Ist Sandbox Desk vollständig installiert? Der Kommandozeilenmodus funktioniert auch ohne das Fenster: sandbox-desk --help</translation>
    </message>
</context>
<context>
    <name>sd</name>
    <message>
        <source>the E2B CLI&apos;s key for %1</source>
        <translation>den Schlüssel der E2B-CLI für %1</translation>
    </message>
    <message>
        <source>Use the E2B CLI&apos;s login</source>
        <translation>Die Anmeldung der E2B-CLI verwenden</translation>
    </message>
    <message>
        <source>Copy the API key of %1 from %2 into the system keychain, as an E2B profile?</source>
        <translation>Den API-Schlüssel von %1 aus %2 als E2B-Profil in den Schlüsselbund des Systems kopieren?</translation>
    </message>
    <message>
        <source>The file stays as it is: the CLI keeps its login, and its sign-in tokens are not read.</source>
        <translation>Die Datei bleibt, wie sie ist: Die CLI bleibt angemeldet, und ihre Anmelde-Tokens werden nicht gelesen.</translation>
    </message>
    <message>
        <source>Copy key</source>
        <translation>Schlüssel kopieren</translation>
    </message>
</context>
<context>
    <name>sd::ApiJob</name>
    <message>
        <source>The API URL &quot;%1&quot; is not a valid http or https address. Check the profile settings.</source>
        <translation>Die API-URL „%1“ ist keine gültige http- oder https-Adresse. Prüfen Sie die Profileinstellungen.</translation>
    </message>
    <message>
        <source>no answer after %1 s</source>
        <translation>keine Antwort nach %1 s</translation>
    </message>
    <message>
        <source>an unknown place</source>
        <translation>eine unbekannte Adresse</translation>
    </message>
    <message>
        <source>the server redirected to %1; redirects are not followed so that the API key only goes to the configured host</source>
        <translation>der Server hat auf %1 umgeleitet; Umleitungen werden nicht verfolgt, damit der API-Schlüssel nur an den eingerichteten Host geht</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a sandbox ID</source>
        <translation>„%1“ ist keine Sandbox-ID</translation>
    </message>
</context>
<context>
    <name>sd::CloseStdinJob</name>
    <message>
        <source>Could not close the process&apos;s input</source>
        <translation>Die Eingabe des Prozesses konnte nicht geschlossen werden</translation>
    </message>
</context>
<context>
    <name>sd::CommandLine</name>
    <message>
        <source>List every sandbox (running and paused), orphans flagged.</source>
        <translation>Alle Sandboxes auflisten (laufende und pausierte), verwaiste markiert.</translation>
    </message>
    <message>
        <source>List only the orphans; exit code 3 when there is at least one.</source>
        <translation>Nur die verwaisten Sandboxes auflisten; Exit-Code 3, wenn es mindestens eine gibt.</translation>
    </message>
    <message>
        <source>Kill every certain orphan (ours, per the journal) and report each.</source>
        <translation>Jede sicher verwaiste Sandbox (laut Journal unsere) beenden und jede melden.</translation>
    </message>
    <message>
        <source>With --kill-orphans, kill the suspected orphans too (other clients&apos; sandboxes on an MCP template with no gateway running).</source>
        <translation>Mit --kill-orphans auch die vermutlich verwaisten beenden (Sandboxes anderer Clients auf einer MCP-Vorlage, in denen kein Gateway läuft).</translation>
    </message>
    <message>
        <source>Create a sandbox (with --template, --mcp, --metadata, --env, --timeout).</source>
        <translation>Eine Sandbox erstellen (mit --template, --mcp, --metadata, --env, --timeout).</translation>
    </message>
    <message>
        <source>Kill the sandboxes given as arguments.</source>
        <translation>Die als Argumente angegebenen Sandboxes beenden.</translation>
    </message>
    <message>
        <source>Show the journal&apos;s creations, newest first.</source>
        <translation>Die Erstellungen aus dem Journal zeigen, neueste zuerst.</translation>
    </message>
    <message>
        <source>Print one JSON document on stdout.</source>
        <translation>Ein JSON-Dokument auf stdout ausgeben.</translation>
    </message>
    <message>
        <source>Use this profile: its name or id, any case; &quot;Local&quot; is this computer&apos;s backend (default: the last profile used).</source>
        <translation>Dieses Profil verwenden: sein Name oder seine ID, Groß-/Kleinschreibung egal; „Local“ ist das Backend dieses Computers (Standard: das zuletzt benutzte Profil).</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>NAME</translation>
    </message>
    <message>
        <source>The port of the Local profile&apos;s backend, in the window and the command line (default: the port stored in the Local profile, 49900).</source>
        <translation>Der Port des Backends des lokalen Profils, im Fenster und auf der Kommandozeile (Standard: der im lokalen Profil gespeicherte Port, 49900).</translation>
    </message>
    <message>
        <source>PORT</source>
        <translation>PORT</translation>
    </message>
    <message>
        <source>Use this API URL (key from E2B_API_KEY).</source>
        <translation>Diese API-URL verwenden (Schlüssel aus E2B_API_KEY).</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Reach every sandbox&apos;s envd through this URL.</source>
        <translation>Das envd jeder Sandbox über diese URL erreichen.</translation>
    </message>
    <message>
        <source>How long a sandbox may be up before gateway-down can apply (default: the gateway budget).</source>
        <translation>Wie lange eine Sandbox laufen darf, bevor „Gateway ausgefallen“ gelten kann (Standard: die Startzeit des Gateways).</translation>
    </message>
    <message>
        <source>SECONDS</source>
        <translation>SEKUNDEN</translation>
    </message>
    <message>
        <source>How long the MCP gateway may take to start (default 120).</source>
        <translation>Wie lange das MCP-Gateway zum Starten brauchen darf (Standard 120).</translation>
    </message>
    <message>
        <source>The template (default mcp-gateway with --mcp, base without).</source>
        <translation>Die Vorlage (Standard: mcp-gateway mit --mcp, base ohne).</translation>
    </message>
    <message>
        <source>T</source>
        <translation>V</translation>
    </message>
    <message>
        <source>The MCP configuration, a JSON object, from FILE or - for stdin.</source>
        <translation>Die MCP-Konfiguration, ein JSON-Objekt, aus DATEI oder - für stdin.</translation>
    </message>
    <message>
        <source>FILE</source>
        <translation>DATEI</translation>
    </message>
    <message>
        <source>A metadata entry (repeatable).</source>
        <translation>Ein Metadateneintrag (wiederholbar).</translation>
    </message>
    <message>
        <source>K=V</source>
        <translation>S=W</translation>
    </message>
    <message>
        <source>An environment variable for the sandbox (repeatable).</source>
        <translation>Eine Umgebungsvariable für die Sandbox (wiederholbar).</translation>
    </message>
    <message>
        <source>The sandbox&apos;s lifetime in seconds (default 300).</source>
        <translation>Die Lebensdauer der Sandbox in Sekunden (Standard 300).</translation>
    </message>
    <message>
        <source>Sandbox ids for --kill.</source>
        <translation>Sandbox-IDs für --kill.</translation>
    </message>
    <message>
        <source>[ID...]</source>
        <translation>[ID...]</translation>
    </message>
    <message>
        <source>Try --help.</source>
        <translation>Siehe --help.</translation>
    </message>
    <message>
        <source>--local-port needs a port number between 1 and 65535.</source>
        <translation>--local-port braucht eine Portnummer zwischen 1 und 65535.</translation>
    </message>
    <message>
        <source>Give exactly one of %1.</source>
        <translation>Geben Sie genau eine der Aktionen %1 an.</translation>
    </message>
    <message>
        <source>--kill needs at least one sandbox id.</source>
        <translation>--kill braucht mindestens eine Sandbox-ID.</translation>
    </message>
    <message>
        <source>Unexpected argument: %1</source>
        <translation>Unerwartetes Argument: %1</translation>
    </message>
    <message>
        <source>--local-port applies to the Local profile; drop it or --api-url.</source>
        <translation>--local-port gilt für das lokale Profil; lassen Sie es oder --api-url weg.</translation>
    </message>
    <message>
        <source>No API key: set E2B_API_KEY.</source>
        <translation>Kein API-Schlüssel: Setzen Sie E2B_API_KEY.</translation>
    </message>
    <message>
        <source>No profile named &quot;%1&quot;. The profiles are: %2. Give --profile one of these names or ids, or --api-url.</source>
        <translation>Es gibt kein Profil „%1“. Die Profile sind: %2. Geben Sie --profile einen dieser Namen oder eine dieser IDs oder verwenden Sie --api-url.</translation>
    </message>
    <message>
        <source>--local-port applies to the Local profile, not to &quot;%1&quot;.</source>
        <translation>--local-port gilt für das lokale Profil, nicht für „%1“.</translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <source>Could not list the sandboxes: %1</source>
        <translation>Die Sandboxes konnten nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>No orphans.
</source>
        <translation>Keine verwaisten Sandboxes.
</translation>
    </message>
    <message>
        <source>No sandboxes.
</source>
        <translation>Keine Sandboxes.
</translation>
    </message>
    <message>
        <source>killed %1
</source>
        <translation>beendet: %1
</translation>
    </message>
    <message>
        <source>FAILED %1: %2
</source>
        <translation>FEHLGESCHLAGEN %1: %2
</translation>
    </message>
    <message>
        <source>No certain orphans.
</source>
        <translation>Keine sicher verwaisten Sandboxes.
</translation>
    </message>
    <message numerus="yes">
        <source>Left %n suspected orphan(s): %1 (--include-suspected kills them too).
</source>
        <translation>
            <numerusform>%n vermutlich verwaiste Sandbox belassen: %1 (--include-suspected beendet sie auch).
</numerusform>
            <numerusform>%n vermutlich verwaiste Sandboxes belassen: %1 (--include-suspected beendet sie auch).
</numerusform>
        </translation>
    </message>
    <message>
        <source>unfinished (%1)</source>
        <translation>nicht abgeschlossen (%1)</translation>
    </message>
    <message>
        <source>No creations yet.
</source>
        <translation>Noch keine Erstellungen.
</translation>
    </message>
    <message>
        <source>Could not read the MCP configuration %1: %2</source>
        <translation>Die MCP-Konfiguration %1 konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>creation %1
</source>
        <translation>Erstellung %1
</translation>
    </message>
    <message>
        <source>sandbox %1
</source>
        <translation>Sandbox %1
</translation>
    </message>
    <message>
        <source>warning: %1
</source>
        <translation>Warnung: %1
</translation>
    </message>
    <message>
        <source>error: %1
</source>
        <translation>Fehler: %1
</translation>
    </message>
    <message>
        <source>ready: %1
</source>
        <translation>bereit: %1
</translation>
    </message>
    <message>
        <source>Cancelling; rolling back what was created…</source>
        <translation>Wird abgebrochen; was angelegt wurde, wird zurückgerollt…</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <source>Sandbox Desk: create, list and clean up E2B sandboxes, orphans flagged.

Without an action it opens the window on the last profile used; only
--local-port and --verbose apply there (Help &gt; Session log shows the
window&apos;s messages). With one action (--list, --orphans,
--kill-orphans, --create, --kill, --history) it runs without a window,
prints the result and exits with:
  0 success, 1 the operation failed, 2 bad usage or input rejected before
  anything was allocated, 3 --orphans found some, 4 the API could not be
  reached or refused the key, 5 the creation journal could not be written
  (what was created was rolled back).</source>
        <translation>Sandbox Desk: E2B-Sandboxes erstellen, auflisten und aufräumen, verwaiste markiert.

Ohne Aktion öffnet es das Fenster mit dem zuletzt benutzten Profil; dort gelten
nur --local-port und --verbose (Hilfe &gt; Sitzungsprotokoll zeigt die Meldungen
des Fensters). Mit einer Aktion (--list, --orphans, --kill-orphans,
--create, --kill, --history) läuft es ohne Fenster, gibt das Ergebnis aus
und endet mit:
  0 Erfolg, 1 der Vorgang ist fehlgeschlagen, 2 falsche Verwendung oder
  Eingabe abgelehnt, bevor etwas angelegt wurde, 3 --orphans hat welche
  gefunden, 4 die API war nicht erreichbar oder hat den Schlüssel abgelehnt,
  5 das Erstellungsjournal konnte nicht geschrieben werden (was angelegt
  wurde, wurde zurückgerollt).</translation>
    </message>
    <message>
        <source>Print debug messages of the sd.* categories on stderr, with time, category and level; in the window, show them in Help &gt; Session log too. Secrets are never logged.</source>
        <translation>Debug-Meldungen der Kategorien sd.* mit Zeit, Kategorie und Stufe auf stderr ausgeben; im Fenster auch unter Hilfe &gt; Sitzungsprotokoll zeigen. Geheimnisse werden nie protokolliert.</translation>
    </message>
    <message>
        <source>--%1 belongs to the command-line mode: add an action (%2). Without an action sandbox-desk opens the window, which takes only --local-port and --verbose.</source>
        <translation>--%1 gehört zum Kommandozeilenmodus: Geben Sie eine Aktion an (%2). Ohne Aktion öffnet sandbox-desk das Fenster, das nur --local-port und --verbose annimmt.</translation>
    </message>
    <message>
        <source>Nothing answered on port %1: starting the local backend (pid %2), which keeps running; its output goes to %3.</source>
        <translation>Auf Port %1 hat nichts geantwortet: Das lokale Backend wird gestartet (PID %2) und läuft weiter; seine Ausgabe geht nach %3.</translation>
    </message>
    <message>
        <source>warning: sandboxes on this computer run without isolation: code in them runs as you and can read and change your files.</source>
        <translation>Warnung: Sandboxes auf diesem Computer laufen ohne Isolation: Code darin läuft als Sie und kann Ihre Dateien lesen und ändern.</translation>
    </message>
    <message>
        <source>%1 was not found: no sandbox by that ID is running or paused
</source>
        <translation>%1 wurde nicht gefunden: Keine Sandbox mit dieser ID läuft oder ist pausiert
</translation>
    </message>
    <message>
        <source>--%1 &quot;%2&quot; is not an http or https URL: write it whole, such as https://api.e2b.app or http://127.0.0.1:49983.</source>
        <translation>--%1 „%2“ ist keine http- oder https-URL: Schreiben Sie sie vollständig, etwa https://api.e2b.app oder http://127.0.0.1:49983.</translation>
    </message>
    <message>
        <source>--%1 needs a number of seconds from 0 to %2, such as 120 (got &quot;%3&quot;).</source>
        <translation>--%1 braucht eine Anzahl Sekunden von 0 bis %2, etwa 120 (angegeben: „%3“).</translation>
    </message>
    <message>
        <source>--timeout needs a whole number of seconds, such as 300 (got &quot;%1&quot;).</source>
        <translation>--timeout braucht eine ganze Zahl von Sekunden, etwa 300 (angegeben: „%1“).</translation>
    </message>
    <message>
        <source>note: %1 not used: the profile last used is Local, this computer&apos;s backend. Give --profile with an E2B or Custom profile, or --api-url, to use the environment.</source>
        <translation>Hinweis: %1 nicht verwendet: Das zuletzt verwendete Profil ist Lokal, das Backend dieses Computers. Geben Sie mit --profile ein E2B- oder selbst gehostetes Profil an, oder --api-url, um die Umgebung zu verwenden.</translation>
    </message>
    <message>
        <source>--metadata needs KEY=VALUE, such as team=data (got &quot;%1&quot;).</source>
        <translation>--metadata braucht SCHLÜSSEL=WERT, etwa team=data (erhalten: „%1“).</translation>
    </message>
    <message>
        <source>--env needs a name before the &quot;=&quot;, such as DEBUG=1 (got &quot;=…&quot;).</source>
        <translation>--env braucht einen Namen vor dem „=“, etwa DEBUG=1 (erhalten: „=…“).</translation>
    </message>
    <message>
        <source>--env needs NAME=VALUE, such as DEBUG=1; one --env has no &quot;=&quot; (it is not shown, as it may hold a secret).</source>
        <translation>--env braucht NAME=WERT, etwa DEBUG=1; ein --env hat kein „=“ (es wird nicht gezeigt, da es ein Geheimnis enthalten kann).</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a sandbox ID: an ID is letters, digits, &quot;-&quot; and &quot;_&quot;, such as %2.</source>
        <translation>„%1“ ist keine Sandbox-ID: Eine ID besteht aus Buchstaben, Ziffern, „-“ und „_“, etwa %2.</translation>
    </message>
    <message>
        <source>--%1 applies only to --%2; it filters nothing else. Remove it.</source>
        <translation>--%1 gilt nur für --%2 und filtert sonst nichts. Entfernen Sie es.</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>%1  %2  %3  ends %4%5
</source>
        <translation>%1  %2  %3  endet %4%5
</translation>
    </message>
    <message>
        <source>ORPHAN</source>
        <translation>VERWAIST</translation>
    </message>
    <message>
        <source>SUSPECTED ORPHAN</source>
        <translation>VERMUTLICH VERWAIST</translation>
    </message>
    <message>
        <source>rollback: %1</source>
        <translation>Rollback: %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>standard input</source>
        <translation>Standardeingabe</translation>
    </message>
    <message>
        <source>Create even if the MCP configuration check finds errors, or with --mcp on a template other than mcp-gateway (one that has the gateway too).</source>
        <translation>Auch dann erstellen, wenn die Prüfung der MCP-Konfiguration Fehler findet, oder mit --mcp auf einer anderen Vorlage als mcp-gateway (einer, die das Gateway ebenfalls hat).</translation>
    </message>
    <message>
        <source>--mcp needs the MCP gateway, and only the &quot;%1&quot; template is known to have it: on &quot;%2&quot; it would likely fail to start once the sandbox exists. Leave out --template (or give --template %1), or add --force if &quot;%2&quot; has the gateway.</source>
        <translation>--mcp braucht das MCP-Gateway, und nur von der Vorlage „%1“ ist bekannt, dass sie es hat: Auf „%2“ würde es wohl nicht starten, wenn die Sandbox schon existiert. Lassen Sie --template weg (oder geben Sie --template %1 an), oder fügen Sie --force hinzu, wenn „%2“ das Gateway hat.</translation>
    </message>
</context>
<context>
    <name>sd::ConnectProcessJob</name>
    <message>
        <source>Could not follow the process</source>
        <translation>Dem Prozess konnte nicht gefolgt werden</translation>
    </message>
</context>
<context>
    <name>sd::ConnectSandboxJob</name>
    <message>
        <source>the connected sandbox could not be read: %1</source>
        <translation>die verbundene Sandbox konnte nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>sd::ConnectionSettings</name>
    <message>
        <source>The API key and the sandboxes&apos; access tokens go to %1 unencrypted (http://): anyone on the network in between can read and use them. Use an https:// URL unless that network is yours alone.</source>
        <translation>Der API-Schlüssel und die Zugriffstoken der Sandboxes gehen unverschlüsselt (http://) an %1: Jeder im Netz dazwischen kann sie lesen und benutzen. Verwenden Sie eine https://-URL, außer das Netz gehört Ihnen allein.</translation>
    </message>
</context>
<context>
    <name>sd::CreateSandboxJob</name>
    <message>
        <source>the created sandbox could not be read: %1</source>
        <translation>die erstellte Sandbox konnte nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>sd::CreationHistoryView</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>unfinished</source>
        <translation>nicht abgeschlossen</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>The sandbox may still be running: the orphan list flags it (rollback failed).</source>
        <translation>Die Sandbox läuft möglicherweise noch: Die Liste markiert sie als verwaist (Rollback fehlgeschlagen).</translation>
    </message>
    <message>
        <source>The server may have created a sandbox it never named: the orphan list looks for it by its creation tag (lost response).</source>
        <translation>Der Server hat möglicherweise eine Sandbox angelegt, ohne sie zu nennen: Die Suche nach verwaisten Sandboxes findet sie über ihre Erstellungsmarkierung (verlorene Antwort).</translation>
    </message>
    <message>
        <source>The orphan list flags what is left (%1).</source>
        <translation>Was übrig ist, wird in der Liste als verwaist markiert (%1).</translation>
    </message>
    <message>
        <source>Sandbox allocated</source>
        <translation>Sandbox angelegt</translation>
    </message>
    <message>
        <source>Search by creation tag found nothing</source>
        <translation>Die Suche über die Erstellungsmarkierung fand nichts</translation>
    </message>
    <message>
        <source>Search by creation tag found sandboxes</source>
        <translation>Die Suche über die Erstellungsmarkierung fand Sandboxes</translation>
    </message>
    <message>
        <source>Gateway start ended; its output was recorded</source>
        <translation>Gateway-Start beendet; seine Ausgabe wurde aufgezeichnet</translation>
    </message>
    <message>
        <source>Removed later as an orphan</source>
        <translation>Später als verwaiste Sandbox entfernt</translation>
    </message>
    <message>
        <source>Creations history</source>
        <translation>Erstellungsverlauf</translation>
    </message>
    <message>
        <source>Creations, newest first</source>
        <translation>Erstellungen, neueste zuerst</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Sandbox</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Creation outcome</source>
        <translation>Ergebnis der Erstellung</translation>
    </message>
    <message>
        <source>State timeline of the selected creation</source>
        <translation>Zeitleiste der Zustände der ausgewählten Erstellung</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Since previous</source>
        <translation>Seit vorigem</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Detail</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>&amp;Zeitleiste</translation>
    </message>
    <message>
        <source>Gateway stderr</source>
        <translation>Gateway-stderr</translation>
    </message>
    <message>
        <source>No gateway output recorded.</source>
        <translation>Keine Gateway-Ausgabe aufgezeichnet.</translation>
    </message>
    <message>
        <source>&amp;Gateway stderr</source>
        <translation>&amp;Gateway-stderr</translation>
    </message>
    <message>
        <source>Search the output (Enter: next, Shift+Enter: previous)</source>
        <translation>Ausgabe durchsuchen (Eingabe: nächster, Umschalt+Eingabe: vorheriger Treffer)</translation>
    </message>
    <message>
        <source>Search the gateway output</source>
        <translation>Die Gateway-Ausgabe durchsuchen</translation>
    </message>
    <message>
        <source>Search result</source>
        <translation>Suchergebnis</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>Vorheriger</translation>
    </message>
    <message>
        <source>Find the previous match</source>
        <translation>Den vorherigen Treffer suchen</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Nächster</translation>
    </message>
    <message>
        <source>Find the next match</source>
        <translation>Den nächsten Treffer suchen</translation>
    </message>
    <message>
        <source>&amp;Copy output</source>
        <translation>Ausgabe &amp;kopieren</translation>
    </message>
    <message>
        <source>Copy the gateway output</source>
        <translation>Die Gateway-Ausgabe kopieren</translation>
    </message>
    <message>
        <source>Copies the whole gateway stderr of the selected creation</source>
        <translation>Kopiert die gesamte Gateway-stderr-Ausgabe der ausgewählten Erstellung</translation>
    </message>
    <message>
        <source>running (%1)</source>
        <translation>läuft (%1)</translation>
    </message>
    <message>
        <source>unfinished (%1)</source>
        <translation>nicht abgeschlossen (%1)</translation>
    </message>
    <message>
        <source>%1 (failed)</source>
        <translation>%1 (fehlgeschlagen)</translation>
    </message>
    <message>
        <source>No creations recorded yet.</source>
        <translation>Noch keine Erstellungen aufgezeichnet.</translation>
    </message>
    <message>
        <source>Select a creation to see how it went.</source>
        <translation>Wählen Sie eine Erstellung, um zu sehen, wie sie verlaufen ist.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Creation %1&lt;/b&gt;</source>
        <translation>&lt;b&gt;Erstellung %1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Template %1; MCP servers: %2; timeout %3 s.</source>
        <translation>Vorlage %1; MCP-Server: %2; Zeitlimit %3 s.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Started %1; ended as %2 after %3.</source>
        <translation>Gestartet %1; geendet als %2 nach %3.</translation>
    </message>
    <message>
        <source>Started %1; running (now: %2).</source>
        <translation>Gestartet %1; läuft (jetzt: %2).</translation>
    </message>
    <message>
        <source>Started %1; never finished (last step: %2). The app was closed, killed or crashed, or another process still runs it.</source>
        <translation>Gestartet %1; nie abgeschlossen (letzter Schritt: %2). Die App wurde geschlossen, abgebrochen oder ist abgestürzt, oder ein anderer Prozess führt sie noch aus.</translation>
    </message>
    <message>
        <source>Sandbox: &lt;tt&gt;%1&lt;/tt&gt;</source>
        <translation>Sandbox: &lt;tt&gt;%1&lt;/tt&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:%1&quot;&gt;Error: %2&lt;/span&gt;</source>
        <translation>&lt;span style=&quot;color:%1&quot;&gt;Fehler: %2&lt;/span&gt;</translation>
    </message>
    <message>
        <source>Rollback: %1.</source>
        <translation>Rollback: %1.</translation>
    </message>
    <message>
        <source>The sandbox is still running: the orphan list flags it (rollback failed).</source>
        <translation>Die Sandbox läuft noch: Die Liste markiert sie als verwaist (Rollback fehlgeschlagen).</translation>
    </message>
    <message>
        <source>The sandbox is no longer running (removed since, or its timeout ended).</source>
        <translation>Die Sandbox läuft nicht mehr (inzwischen entfernt oder ihr Zeitlimit ist abgelaufen).</translation>
    </message>
    <message>
        <source>Removed later as orphans: %1</source>
        <translation>Später als verwaiste Sandboxes entfernt: %1</translation>
    </message>
    <message>
        <source>
[… output truncated at %1 KiB]</source>
        <translation>
[… Ausgabe bei %1 KiB abgeschnitten]</translation>
    </message>
    <message>
        <source>+%1</source>
        <translation>+%1</translation>
    </message>
    <message>
        <source>in progress</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>stopped here: the creation never finished</source>
        <translation>hier stehen geblieben: Die Erstellung wurde nie abgeschlossen</translation>
    </message>
    <message>
        <source>No match</source>
        <translation>Kein Treffer</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n Treffer</numerusform>
            <numerusform>%n Treffer</numerusform>
        </translation>
    </message>
    <message>
        <source>A later kill failed</source>
        <translation>Ein späteres Beenden ist fehlgeschlagen</translation>
    </message>
    <message>
        <source>Find creations by their gateway output</source>
        <translation>Erstellungen nach ihrer Gateway-Ausgabe suchen</translation>
    </message>
    <message>
        <source>Filter creations by gateway output</source>
        <translation>Erstellungen nach Gateway-Ausgabe filtern</translation>
    </message>
    <message>
        <source>Creations shown</source>
        <translation>Angezeigte Erstellungen</translation>
    </message>
    <message>
        <source>Showing %1 of %2</source>
        <translation>%1 von %2 angezeigt</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Sandbox killed</source>
        <translation>Sandbox beendet</translation>
    </message>
    <message>
        <source>Cancelled by the user before a sandbox was made.</source>
        <translation>Vom Benutzer abgebrochen, bevor eine Sandbox angelegt wurde.</translation>
    </message>
    <message>
        <source>Cancelled by the user; what it had made was removed.</source>
        <translation>Vom Benutzer abgebrochen; was sie angelegt hatte, wurde entfernt.</translation>
    </message>
    <message>
        <source>The sandbox was killed later: %1.</source>
        <translation>Die Sandbox wurde später beendet: %1.</translation>
    </message>
    <message>
        <source>stopped here by the cancel</source>
        <translation>hier durch den Abbruch angehalten</translation>
    </message>
    <message>
        <source>%1 · sandbox killed</source>
        <translation>%1 · Sandbox beendet</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n orphan(s) killed</source>
        <translation>
            <numerusform>%1 · %n verwaiste Sandbox beendet</numerusform>
            <numerusform>%1 · %n verwaiste Sandboxes beendet</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::CreationJob</name>
    <message>
        <source>The creation could not be recorded, so it was stopped</source>
        <translation>Die Erstellung konnte nicht aufgezeichnet werden und wurde deshalb angehalten</translation>
    </message>
    <message>
        <source>The timeout must be between 1 second and 24 hours (%1 s given)</source>
        <translation>Das Zeitlimit muss zwischen 1 Sekunde und 24 Stunden liegen (angegeben: %1 s)</translation>
    </message>
    <message>
        <source>A metadata key is empty</source>
        <translation>Ein Metadatenschlüssel ist leer</translation>
    </message>
    <message>
        <source>The metadata key &quot;%1&quot; is reserved: keys starting with &quot;%2&quot; are set by Sandbox Desk</source>
        <translation>Der Metadatenschlüssel „%1“ ist reserviert: Schlüssel, die mit „%2“ beginnen, setzt Sandbox Desk</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid environment variable name (letters, digits and _, not starting with a digit)</source>
        <translation>„%1“ ist kein gültiger Name für eine Umgebungsvariable (Buchstaben, Ziffern und _, nicht mit einer Ziffer beginnend)</translation>
    </message>
    <message>
        <source>The MCP configuration has problems: %1</source>
        <translation>Die MCP-Konfiguration hat Probleme: %1</translation>
    </message>
    <message>
        <source>The creation could not be recorded; nothing was created</source>
        <translation>Die Erstellung konnte nicht aufgezeichnet werden; es wurde nichts angelegt</translation>
    </message>
    <message>
        <source>Could not create the sandbox</source>
        <translation>Die Sandbox konnte nicht erstellt werden</translation>
    </message>
    <message numerus="yes">
        <source>[first %n byte(s) of output cut]
</source>
        <translation>
            <numerusform>[erstes %n Byte der Ausgabe abgeschnitten]
</numerusform>
            <numerusform>[erste %n Byte der Ausgabe abgeschnitten]
</numerusform>
        </translation>
    </message>
    <message>
        <source>Failed to start MCP gateway</source>
        <translation>Das MCP-Gateway konnte nicht gestartet werden</translation>
    </message>
    <message>
        <source>the MCP gateway did not start within %1 s</source>
        <translation>das MCP-Gateway ist nicht innerhalb von %1 s gestartet</translation>
    </message>
    <message>
        <source>; its error output so far:
%1</source>
        <translation>; seine bisherige Fehlerausgabe:
%1</translation>
    </message>
    <message>
        <source>exit code %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <source>the process stream ended without an exit status</source>
        <translation>der Prozessdatenstrom endete ohne Exit-Status</translation>
    </message>
    <message>
        <source>Could not set the sandbox timeout</source>
        <translation>Das Zeitlimit der Sandbox konnte nicht gesetzt werden</translation>
    </message>
    <message>
        <source>The sandbox %1 could not be removed and may still be running</source>
        <translation>Die Sandbox %1 konnte nicht entfernt werden und läuft möglicherweise noch</translation>
    </message>
    <message>
        <source>The server may have created a sandbox, and searching for it failed; it will be looked for again on the next refresh</source>
        <translation>Der Server hat möglicherweise eine Sandbox angelegt, und die Suche danach ist fehlgeschlagen; beim nächsten Aktualisieren wird erneut danach gesucht</translation>
    </message>
    <message numerus="yes">
        <source>The server may have created a sandbox: found %n, and not all could be removed</source>
        <translation>
            <numerusform>Der Server hat möglicherweise eine Sandbox angelegt: %n gefunden, aber nicht entfernt</numerusform>
            <numerusform>Der Server hat möglicherweise eine Sandbox angelegt: %n gefunden, aber nicht alle entfernt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The server may have created a sandbox: found and removed %n</source>
        <translation>
            <numerusform>Der Server hat möglicherweise eine Sandbox angelegt: %n gefunden und entfernt</numerusform>
            <numerusform>Der Server hat möglicherweise eine Sandbox angelegt: %n gefunden und entfernt</numerusform>
        </translation>
    </message>
    <message>
        <source>The gateway&apos;s start budget must be more than 0 s and at most %1 s, since the sandbox starts with a timeout of the budget plus %2 s and a timeout may not exceed 24 hours (%3 s given)</source>
        <translation>Das Startbudget des Gateways muss mehr als 0 s und höchstens %1 s betragen, da die Sandbox mit einem Zeitlimit von Budget plus %2 s beginnt und ein Zeitlimit 24 Stunden nicht überschreiten darf (angegeben: %3 s)</translation>
    </message>
</context>
<context>
    <name>sd::CreationJournal</name>
    <message>
        <source>Could not lock the journal %1: %2</source>
        <translation>Das Journal %1 konnte nicht gesperrt werden: %2</translation>
    </message>
    <message>
        <source>Could not create the journal folder %1</source>
        <translation>Der Journalordner %1 konnte nicht angelegt werden</translation>
    </message>
    <message>
        <source>Could not read the journal %1: %2</source>
        <translation>Das Journal %1 konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>The journal %1 is damaged and could not be moved aside</source>
        <translation>Das Journal %1 ist beschädigt und konnte nicht beiseitegelegt werden</translation>
    </message>
    <message numerus="yes">
        <source>The journal had %n unreadable line(s); it was moved to %1 and its readable records were kept</source>
        <translation>
            <numerusform>Das Journal hatte %n unlesbare Zeile; es wurde nach %1 verschoben, seine lesbaren Einträge wurden behalten</numerusform>
            <numerusform>Das Journal hatte %n unlesbare Zeilen; es wurde nach %1 verschoben, seine lesbaren Einträge wurden behalten</numerusform>
        </translation>
    </message>
    <message>
        <source>The last journal line was incomplete (the app stopped while writing it) and was skipped</source>
        <translation>Die letzte Journalzeile war unvollständig (die App wurde beim Schreiben beendet) und wurde übersprungen</translation>
    </message>
    <message>
        <source>Could not repair the journal %1</source>
        <translation>Das Journal %1 konnte nicht repariert werden</translation>
    </message>
    <message>
        <source>The journal %1 is not open</source>
        <translation>Das Journal %1 ist nicht geöffnet</translation>
    </message>
    <message>
        <source>Could not write to the journal %1: %2</source>
        <translation>In das Journal %1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Could not write the journal %1: %2</source>
        <translation>Das Journal %1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>The journal %1 is held by another process that has not released it for %n second(s). It may be stopped (Ctrl+Z) or hung: resume it or end it, then try again.</source>
        <translation>
            <numerusform>Das Journal %1 wird von einem anderen Prozess gehalten, der es seit %n Sekunde nicht freigegeben hat. Er ist vielleicht angehalten (Strg+Z) oder hängt: Setzen Sie ihn fort oder beenden Sie ihn und versuchen Sie es dann erneut.</numerusform>
            <numerusform>Das Journal %1 wird von einem anderen Prozess gehalten, der es seit %n Sekunden nicht freigegeben hat. Er ist vielleicht angehalten (Strg+Z) oder hängt: Setzen Sie ihn fort oder beenden Sie ihn und versuchen Sie es dann erneut.</numerusform>
        </translation>
    </message>
    <message>
        <source>The journal %1 is held by another process (pid %2, %3), which is stopped (Ctrl+Z). Resume it (fg, or kill -CONT %2) or end it, then try again.</source>
        <translation>Das Journal %1 wird von einem anderen Prozess gehalten (PID %2, %3), der angehalten ist (Strg+Z). Setzen Sie ihn fort (fg oder kill -CONT %2) oder beenden Sie ihn und versuchen Sie es dann erneut.</translation>
    </message>
    <message numerus="yes">
        <source>The journal %1 is held by another process (pid %2, %3) that has not released it for %n second(s). It may be stopped (Ctrl+Z) or hung: resume it (fg, or kill -CONT %2) or end it, then try again.</source>
        <translation>
            <numerusform>Das Journal %1 wird von einem anderen Prozess gehalten (PID %2, %3), der es seit %n Sekunde nicht freigegeben hat. Er ist vielleicht angehalten (Strg+Z) oder hängt: Setzen Sie ihn fort (fg oder kill -CONT %2) oder beenden Sie ihn und versuchen Sie es dann erneut.</numerusform>
            <numerusform>Das Journal %1 wird von einem anderen Prozess gehalten (PID %2, %3), der es seit %n Sekunden nicht freigegeben hat. Er ist vielleicht angehalten (Strg+Z) oder hängt: Setzen Sie ihn fort (fg oder kill -CONT %2) oder beenden Sie ihn und versuchen Sie es dann erneut.</numerusform>
        </translation>
    </message>
    <message>
        <source>The journal %1 is being written by another process (pid %2, %3). Try again in a moment.</source>
        <translation>Ein anderer Prozess (PID %2, %3) schreibt gerade in das Journal %1. Versuchen Sie es gleich noch einmal.</translation>
    </message>
    <message>
        <source>The journal %1 is being written by another process. Try again in a moment.</source>
        <translation>Ein anderer Prozess schreibt gerade in das Journal %1. Versuchen Sie es gleich noch einmal.</translation>
    </message>
    <message numerus="yes">
        <source>The journal had %n unreadable line(s), skipped; it is repaired when no other process is writing it</source>
        <translation>
            <numerusform>Das Journal hatte %n unlesbare Zeile, die übersprungen wurde; es wird repariert, sobald kein anderer Prozess hineinschreibt</numerusform>
            <numerusform>Das Journal hatte %n unlesbare Zeilen, die übersprungen wurden; es wird repariert, sobald kein anderer Prozess hineinschreibt</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::CreationRegistry</name>
    <message>
        <source>creation %1: %2</source>
        <translation>Erstellung %1: %2</translation>
    </message>
</context>
<context>
    <name>sd::CreationState</name>
    <message>
        <source>Checking the request</source>
        <translation>Anfrage wird geprüft</translation>
    </message>
    <message>
        <source>Allocating the sandbox</source>
        <translation>Sandbox wird angelegt</translation>
    </message>
    <message>
        <source>Starting the MCP gateway</source>
        <translation>MCP-Gateway wird gestartet</translation>
    </message>
    <message>
        <source>Setting the sandbox timeout</source>
        <translation>Zeitlimit der Sandbox wird gesetzt</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>Rolling back</source>
        <translation>Wird zurückgerollt</translation>
    </message>
    <message>
        <source>Rolled back</source>
        <translation>Zurückgerollt</translation>
    </message>
    <message>
        <source>Rollback failed</source>
        <translation>Rollback fehlgeschlagen</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Abgelehnt</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>the sandbox was removed</source>
        <translation>die Sandbox wurde entfernt</translation>
    </message>
    <message>
        <source>the sandbox was already gone</source>
        <translation>die Sandbox war schon entfernt</translation>
    </message>
    <message>
        <source>the sandbox could not be removed</source>
        <translation>die Sandbox konnte nicht entfernt werden</translation>
    </message>
    <message>
        <source>%1 (attempts: %2)</source>
        <translation>%1 (Versuche: %2)</translation>
    </message>
    <message>
        <source>; last error: %1</source>
        <translation>; letzter Fehler: %1</translation>
    </message>
</context>
<context>
    <name>sd::CreationsPanel</name>
    <message>
        <source>Running creations</source>
        <translation>Laufende Erstellungen</translation>
    </message>
    <message>
        <source>Creations running now</source>
        <translation>Gerade laufende Erstellungen</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Sandbox</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Cancel this creation and remove what it has created so far</source>
        <translation>Diese Erstellung abbrechen und entfernen, was sie bisher angelegt hat</translation>
    </message>
    <message>
        <source>Cancel the creation from %1</source>
        <translation>Die Erstellung von %1 abbrechen</translation>
    </message>
    <message numerus="yes">
        <source>Creations running: %n (they end in the creations history, Ctrl+H)</source>
        <translation>
            <numerusform>%n Erstellung läuft (sie endet im Erstellungsverlauf, Strg+H)</numerusform>
            <numerusform>%n Erstellungen laufen (sie enden im Erstellungsverlauf, Strg+H)</numerusform>
        </translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Creation %1</source>
        <translation>Erstellung %1</translation>
    </message>
    <message>
        <source>Cancelled: removing what it created</source>
        <translation>Abgebrochen: Was sie angelegt hat, wird entfernt</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
</context>
<context>
    <name>sd::DeleteKeyJob</name>
    <message>
        <source>The keychain did not delete the key</source>
        <translation>Der Schlüsselbund hat den Schlüssel nicht gelöscht</translation>
    </message>
</context>
<context>
    <name>sd::DetailPane</name>
    <message>
        <source>Sandbox details</source>
        <translation>Sandbox-Details</translation>
    </message>
    <message>
        <source>Select a sandbox to see its details.</source>
        <translation>Wählen Sie eine Sandbox, um ihre Details zu sehen.</translation>
    </message>
    <message>
        <source>Sandbox ID</source>
        <translation>Sandbox-ID</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Ends</source>
        <translation>Endet</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>Restzeit</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>Ressourcen</translation>
    </message>
    <message>
        <source>envd version</source>
        <translation>envd-Version</translation>
    </message>
    <message>
        <source>Client ID</source>
        <translation>Client-ID</translation>
    </message>
    <message>
        <source>Internet access</source>
        <translation>Internetzugang</translation>
    </message>
    <message>
        <source>Orphan</source>
        <translation>Verwaist</translation>
    </message>
    <message>
        <source>MCP URL</source>
        <translation>MCP-URL</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy MCP URL</source>
        <translation>MCP-URL kopieren</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>Metadaten</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>Protokolle</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Messwerte</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>Prozesse</translation>
    </message>
    <message>
        <source>Sandbox detail tabs</source>
        <translation>Reiter der Sandbox-Details</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>never while paused</source>
        <translation>nie, solange pausiert</translation>
    </message>
    <message numerus="yes">
        <source>%n vCPU</source>
        <translation>
            <numerusform>%n vCPU</numerusform>
            <numerusform>%n vCPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 MiB RAM</source>
        <translation>%1 MiB RAM</translation>
    </message>
    <message>
        <source>%1 MiB disk</source>
        <translation>%1 MiB Speicherplatz</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>erlaubt</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>gesperrt</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>none (no public domain for this sandbox)</source>
        <translation>keine (keine öffentliche Domain für diese Sandbox)</translation>
    </message>
    <message>
        <source>%1 · suspected orphan</source>
        <translation>%1 · vermutlich verwaist</translation>
    </message>
    <message>
        <source>%1 · orphan</source>
        <translation>%1 · verwaist</translation>
    </message>
    <message>
        <source>expiring</source>
        <translation>läuft ab</translation>
    </message>
    <message>
        <source>allowed (default)</source>
        <translation>erlaubt (Standard)</translation>
    </message>
</context>
<context>
    <name>sd::DetailTab</name>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Refresh this tab</source>
        <translation>Diesen Reiter aktualisieren</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen…</translation>
    </message>
</context>
<context>
    <name>sd::E2bCliLogin</name>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 is too large to be the E2B CLI&apos;s login.</source>
        <translation>%1 ist zu groß, um die Anmeldung der E2B-CLI zu sein.</translation>
    </message>
    <message>
        <source>%1 is not a JSON object.</source>
        <translation>%1 ist kein JSON-Objekt.</translation>
    </message>
    <message>
        <source>%1 has a version this app does not know; run `e2b auth login` again.</source>
        <translation>%1 hat eine Version, die diese App nicht kennt; führen Sie `e2b auth login` erneut aus.</translation>
    </message>
    <message>
        <source>%1 holds no API key with its %2; run `e2b auth login` again.</source>
        <translation>%1 enthält keinen API-Schlüssel zu seinem %2; führen Sie `e2b auth login` erneut aus.</translation>
    </message>
    <message>
        <source>project</source>
        <translation>Projekt</translation>
    </message>
    <message>
        <source>team</source>
        <translation>Team</translation>
    </message>
    <message>
        <source>the project %1</source>
        <translation>dem Projekt %1</translation>
    </message>
    <message>
        <source>the team %1</source>
        <translation>dem Team %1</translation>
    </message>
</context>
<context>
    <name>sd::EnvdJob</name>
    <message>
        <source>the sandbox did not answer in time</source>
        <translation>die Sandbox hat nicht rechtzeitig geantwortet</translation>
    </message>
    <message>
        <source>the sandbox&apos;s answer is not a JSON object</source>
        <translation>die Antwort der Sandbox ist kein JSON-Objekt</translation>
    </message>
    <message>
        <source>the sandbox&apos;s answer is larger than %1 MiB</source>
        <translation>die Antwort der Sandbox ist größer als %1 MiB</translation>
    </message>
</context>
<context>
    <name>sd::Error</name>
    <message>
        <source>Could not reach the server: %1</source>
        <translation>Der Server ist nicht erreichbar: %1</translation>
    </message>
    <message>
        <source>The server refused the API key (HTTP %1)</source>
        <translation>Der Server hat den API-Schlüssel abgelehnt (HTTP %1)</translation>
    </message>
    <message>
        <source>The server tried to redirect the request (HTTP %1)</source>
        <translation>Der Server wollte die Anfrage umleiten (HTTP %1)</translation>
    </message>
    <message>
        <source>The server rejected the request (HTTP %1)</source>
        <translation>Der Server hat die Anfrage abgelehnt (HTTP %1)</translation>
    </message>
    <message>
        <source>The server did not find it (HTTP %1)</source>
        <translation>Der Server hat es nicht gefunden (HTTP %1)</translation>
    </message>
    <message>
        <source>The request conflicts with the sandbox&apos;s current state (HTTP %1)</source>
        <translation>Die Anfrage passt nicht zum aktuellen Zustand der Sandbox (HTTP %1)</translation>
    </message>
    <message>
        <source>The server is limiting requests; try again shortly (HTTP %1)</source>
        <translation>Der Server begrenzt die Anfragen; versuchen Sie es gleich noch einmal (HTTP %1)</translation>
    </message>
    <message>
        <source>The server failed to handle the request (HTTP %1)</source>
        <translation>Der Server konnte die Anfrage nicht bearbeiten (HTTP %1)</translation>
    </message>
    <message>
        <source>The server answered HTTP %1</source>
        <translation>Der Server hat mit HTTP %1 geantwortet</translation>
    </message>
    <message>
        <source>Check the key in the profile settings.</source>
        <translation>Prüfen Sie den Schlüssel in den Profileinstellungen.</translation>
    </message>
    <message>
        <source>The server did not answer in time</source>
        <translation>Der Server hat nicht rechtzeitig geantwortet</translation>
    </message>
    <message>
        <source>The server did not answer in time (%1)</source>
        <translation>Der Server hat nicht rechtzeitig geantwortet (%1)</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>The server sent an answer that could not be understood: %1</source>
        <translation>Der Server hat eine unverständliche Antwort gesendet: %1</translation>
    </message>
</context>
<context>
    <name>sd::FirstRunHint</name>
    <message>
        <source>Profiles…</source>
        <translation>Profile…</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Ausblenden</translation>
    </message>
    <message>
        <source>First-run hint</source>
        <translation>Hinweis zum ersten Start</translation>
    </message>
    <message>
        <source>Sandbox Desk runs on &quot;Local (this computer)&quot; with no account. To manage cloud sandboxes, add an E2B or self-hosted profile in Profiles.</source>
        <translation>Sandbox Desk läuft ohne Konto auf „Lokal (dieser Computer)“. Um Sandboxes in der Cloud zu verwalten, fügen Sie unter „Profile“ ein E2B- oder ein selbst gehostetes Profil hinzu.</translation>
    </message>
    <message>
        <source>E2B_API_KEY is set: it can become an E2B profile, its key stored in the system keychain.</source>
        <translation>E2B_API_KEY ist gesetzt: Daraus kann ein E2B-Profil werden, dessen Schlüssel im Schlüsselbund des Systems liegt.</translation>
    </message>
    <message>
        <source>Use E2B_API_KEY</source>
        <translation>E2B_API_KEY verwenden</translation>
    </message>
    <message>
        <source>Create an E2B profile with the key from E2B_API_KEY</source>
        <translation>Ein E2B-Profil mit dem Schlüssel aus E2B_API_KEY anlegen</translation>
    </message>
    <message>
        <source>Open the profiles</source>
        <translation>Die Profile öffnen</translation>
    </message>
    <message>
        <source>Dismiss the first-run hint</source>
        <translation>Den Hinweis zum ersten Start ausblenden</translation>
    </message>
    <message>
        <source>No E2B profile could be created: %1</source>
        <translation>Es konnte kein E2B-Profil angelegt werden: %1</translation>
    </message>
    <message>
        <source>Added the profile &quot;%1&quot;, but its key could not be stored: %2</source>
        <translation>Das Profil „%1“ wurde hinzugefügt, aber sein Schlüssel konnte nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>Added the profile &quot;%1&quot; and switched to it. %2</source>
        <translation>Das Profil „%1“ wurde hinzugefügt und ausgewählt. %2</translation>
    </message>
    <message>
        <source>The E2B CLI is logged in with %1: its key can become an E2B profile, stored in the system keychain once you agree.</source>
        <translation>Die E2B-CLI ist mit %1 angemeldet: Ihr Schlüssel kann zu einem E2B-Profil werden und wird nach Ihrer Zustimmung im Schlüsselbund des Systems gespeichert.</translation>
    </message>
    <message>
        <source>Use the E2B CLI&apos;s login…</source>
        <translation>Die Anmeldung der E2B-CLI verwenden…</translation>
    </message>
    <message>
        <source>Create an E2B profile with the key of the E2B CLI&apos;s login</source>
        <translation>Ein E2B-Profil mit dem Schlüssel der Anmeldung der E2B-CLI anlegen</translation>
    </message>
    <message>
        <source>The E2B CLI&apos;s login cannot be used: %1</source>
        <translation>Die Anmeldung der E2B-CLI kann nicht verwendet werden: %1</translation>
    </message>
    <message>
        <source>the key from E2B_API_KEY</source>
        <translation>dem Schlüssel aus E2B_API_KEY</translation>
    </message>
    <message>
        <source>The E2B CLI is no longer logged in (%1 is gone).</source>
        <translation>Die E2B-CLI ist nicht mehr angemeldet (%1 ist nicht mehr vorhanden).</translation>
    </message>
    <message>
        <source>Creating an E2B profile with %1…</source>
        <translation>E2B-Profil mit %1 wird angelegt…</translation>
    </message>
    <message>
        <source>The profile &quot;%1&quot; already has %2; switched to it.</source>
        <translation>Das Profil „%1“ hat bereits %2; zu ihm gewechselt.</translation>
    </message>
    <message>
        <source>Added the profile &quot;%1&quot; with %2, stored in the system keychain, and switched to it.</source>
        <translation>Das Profil „%1“ mit %2 wurde hinzugefügt, im Schlüsselbund des Systems gespeichert und ausgewählt.</translation>
    </message>
</context>
<context>
    <name>sd::GetSandboxJob</name>
    <message>
        <source>the sandbox details could not be read: %1</source>
        <translation>die Details der Sandbox konnten nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>sd::ImportKeyJob</name>
    <message>
        <source>E2B_API_KEY is not set.</source>
        <translation>E2B_API_KEY ist nicht gesetzt.</translation>
    </message>
    <message>
        <source>The E2B CLI is not logged in (%1 does not exist).</source>
        <translation>Die E2B-CLI ist nicht angemeldet (%1 existiert nicht).</translation>
    </message>
    <message>
        <source>The profile store is gone.</source>
        <translation>Der Profilspeicher ist nicht mehr vorhanden.</translation>
    </message>
    <message>
        <source>E2B</source>
        <translation>E2B</translation>
    </message>
    <message>
        <source>E2B (%1)</source>
        <translation>E2B (%1)</translation>
    </message>
</context>
<context>
    <name>sd::KeyStore</name>
    <message>
        <source>No keychain is available on this desktop (no D-Bus Secret Service); the key is kept for this session only or taken from E2B_API_KEY.</source>
        <translation>Auf diesem Desktop ist kein Schlüsselbund verfügbar (kein D-Bus Secret Service); der Schlüssel gilt nur für diese Sitzung oder wird aus E2B_API_KEY genommen.</translation>
    </message>
</context>
<context>
    <name>sd::KeyValueTable</name>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Add a row to %1</source>
        <translation>Eine Zeile zu %1 hinzufügen</translation>
    </message>
    <message>
        <source>Remove the selected row</source>
        <translation>Die ausgewählte Zeile entfernen</translation>
    </message>
</context>
<context>
    <name>sd::KeychainJob</name>
    <message>
        <source>The key store is gone.</source>
        <translation>Der Schlüsselspeicher ist nicht mehr vorhanden.</translation>
    </message>
    <message>
        <source>The profile has no valid id; save it before storing its key.</source>
        <translation>Das Profil hat keine gültige ID; speichern Sie es, bevor Sie seinen Schlüssel speichern.</translation>
    </message>
</context>
<context>
    <name>sd::KillOrphansJob</name>
    <message numerus="yes">
        <source>%n orphan(s) could not be removed</source>
        <translation>
            <numerusform>%n verwaiste Sandbox konnte nicht entfernt werden</numerusform>
            <numerusform>%n verwaiste Sandboxes konnten nicht entfernt werden</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sd::ListProcessesJob</name>
    <message>
        <source>Could not list the sandbox&apos;s processes</source>
        <translation>Die Prozesse der Sandbox konnten nicht aufgelistet werden</translation>
    </message>
</context>
<context>
    <name>sd::ListSandboxesJob</name>
    <message>
        <source>the sandbox list could not be read: %1</source>
        <translation>die Sandbox-Liste konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>a listed sandbox could not be read: %1</source>
        <translation>eine aufgelistete Sandbox konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>the server kept paging after %1 pages</source>
        <translation>der Server hat nach %1 Seiten immer weitere Seiten geliefert</translation>
    </message>
</context>
<context>
    <name>sd::ListTemplatesJob</name>
    <message>
        <source>the template list could not be read: %1</source>
        <translation>die Vorlagenliste konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>a template could not be read: %1</source>
        <translation>eine Vorlage konnte nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>sd::LocalBackendStarter</name>
    <message>
        <source>The local backend stopped at once; its log %1 says why (for example that bubblewrap cannot isolate sandboxes here).</source>
        <translation>Das lokale Backend wurde sofort wieder beendet; sein Protokoll %1 nennt den Grund (zum Beispiel, dass bubblewrap hier keine Sandboxes isolieren kann).</translation>
    </message>
    <message>
        <source>the local backend did not answer within %1 s after it was started</source>
        <translation>das lokale Backend hat nach dem Start nicht innerhalb von %1 s geantwortet</translation>
    </message>
    <message>
        <source>nothing answers on port %1</source>
        <translation>auf Port %1 antwortet nichts</translation>
    </message>
    <message>
        <source>The local backend is not running</source>
        <translation>Das lokale Backend läuft nicht</translation>
    </message>
    <message>
        <source>The local backend is not running and %1 was not found.</source>
        <translation>Das lokale Backend läuft nicht, und %1 wurde nicht gefunden.</translation>
    </message>
    <message>
        <source>Could not start the local backend: %1</source>
        <translation>Das lokale Backend konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>Something answers on port %1, but no listener of this user holds it; the local backend&apos;s key is not sent to it. Choose another port with --local-port.</source>
        <translation>Auf Port %1 antwortet etwas, aber kein Programm dieses Benutzers belegt ihn; der Schlüssel des lokalen Backends wird ihm nicht gesendet. Wählen Sie mit --local-port einen anderen Port.</translation>
    </message>
    <message>
        <source>Port %1 is held by another user&apos;s program (uid %2); the local backend&apos;s key is not sent to it. Choose another port with --local-port, or stop that program.</source>
        <translation>Port %1 ist von einem Programm eines anderen Benutzers belegt (UID %2); der Schlüssel des lokalen Backends wird ihm nicht gesendet. Wählen Sie mit --local-port einen anderen Port oder beenden Sie dieses Programm.</translation>
    </message>
    <message>
        <source>The local backend answers, but its API key could not be read from %1: %2</source>
        <translation>Das lokale Backend antwortet, aber sein API-Schlüssel konnte nicht aus %1 gelesen werden: %2</translation>
    </message>
    <message>
        <source>The local backend&apos;s key file %1 does not hold a key.</source>
        <translation>Die Schlüsseldatei %1 des lokalen Backends enthält keinen Schlüssel.</translation>
    </message>
</context>
<context>
    <name>sd::LogsTab</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>&amp;Follow</source>
        <translation>&amp;Mitverfolgen</translation>
    </message>
    <message>
        <source>Sandbox logs</source>
        <translation>Sandbox-Protokolle</translation>
    </message>
    <message>
        <source>Log level</source>
        <translation>Protokollstufe</translation>
    </message>
    <message>
        <source>All levels</source>
        <translation>Alle Stufen</translation>
    </message>
    <message>
        <source>Search logs</source>
        <translation>Protokolle durchsuchen</translation>
    </message>
    <message>
        <source>Fetch new entries every 5 seconds and keep the newest in view</source>
        <translation>Alle 5 Sekunden neue Einträge abrufen und die neuesten im Blick behalten</translation>
    </message>
    <message>
        <source>No log entries.</source>
        <translation>Keine Protokolleinträge.</translation>
    </message>
    <message>
        <source>The selected log entry in full</source>
        <translation>Der ausgewählte Protokolleintrag vollständig</translation>
    </message>
</context>
<context>
    <name>sd::LoopbackHttpReply</name>
    <message>
        <source>A request header holds a line break or an invalid name.</source>
        <translation>Ein Kopfzeilenfeld der Anfrage enthält einen Zeilenumbruch oder einen ungültigen Namen.</translation>
    </message>
    <message>
        <source>The server&apos;s answer has headers larger than 64 KiB.</source>
        <translation>Die Kopfzeilen der Serverantwort sind größer als 64 KiB.</translation>
    </message>
    <message>
        <source>The server&apos;s answer is not HTTP.</source>
        <translation>Die Antwort des Servers ist kein HTTP.</translation>
    </message>
    <message>
        <source>The server&apos;s answer has an invalid Content-Length.</source>
        <translation>Die Antwort des Servers hat eine ungültige Content-Length.</translation>
    </message>
    <message>
        <source>The server&apos;s answer has an invalid chunk.</source>
        <translation>Die Antwort des Servers enthält einen ungültigen Chunk.</translation>
    </message>
</context>
<context>
    <name>sd::MainWindow</name>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… und %n weitere</numerusform>
            <numerusform>… und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>The rollback of a failed creation could not kill it</source>
        <translation>Der Rollback einer fehlgeschlagenen Erstellung konnte sie nicht beenden</translation>
    </message>
    <message>
        <source>Its creation was interrupted before it finished</source>
        <translation>Ihre Erstellung wurde vor dem Abschluss unterbrochen</translation>
    </message>
    <message>
        <source>Created by a request whose answer was lost</source>
        <translation>Von einer Anfrage angelegt, deren Antwort verloren ging</translation>
    </message>
    <message>
        <source>Its MCP gateway is not running</source>
        <translation>Ihr MCP-Gateway läuft nicht</translation>
    </message>
    <message>
        <source>Sandbox Desk</source>
        <translation>Sandbox Desk</translation>
    </message>
    <message>
        <source>Creations history</source>
        <translation>Erstellungsverlauf</translation>
    </message>
    <message>
        <source>Show every creation and how it ended (Ctrl+H)</source>
        <translation>Alle Erstellungen zeigen und wie sie geendet haben (Strg+H)</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>Refresh the list now</source>
        <translation>Die Liste jetzt aktualisieren</translation>
    </message>
    <message>
        <source>&amp;New sandbox…</source>
        <translation>&amp;Neue Sandbox…</translation>
    </message>
    <message>
        <source>Create a sandbox</source>
        <translation>Eine Sandbox erstellen</translation>
    </message>
    <message>
        <source>&amp;Kill…</source>
        <translation>&amp;Beenden…</translation>
    </message>
    <message>
        <source>Kill the selected sandboxes</source>
        <translation>Die ausgewählten Sandboxes beenden</translation>
    </message>
    <message>
        <source>Kill all &amp;orphans…</source>
        <translation>&amp;Verwaiste beenden…</translation>
    </message>
    <message>
        <source>Kill every sandbox flagged as an orphan</source>
        <translation>Jede als verwaist markierte Sandbox beenden</translation>
    </message>
    <message>
        <source>&amp;Extend timeout…</source>
        <translation>Zeitlimit ver&amp;längern…</translation>
    </message>
    <message>
        <source>Give the selected sandboxes more time</source>
        <translation>Den ausgewählten Sandboxes mehr Zeit geben</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pausieren</translation>
    </message>
    <message>
        <source>Pause the selected sandboxes</source>
        <translation>Die ausgewählten Sandboxes pausieren</translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>Resume the selected sandboxes</source>
        <translation>Die ausgewählten Sandboxes fortsetzen</translation>
    </message>
    <message>
        <source>&amp;Copy ID</source>
        <translation>&amp;ID kopieren</translation>
    </message>
    <message>
        <source>Copy the selected sandbox IDs</source>
        <translation>Die IDs der ausgewählten Sandboxes kopieren</translation>
    </message>
    <message>
        <source>Copy &amp;MCP URL</source>
        <translation>&amp;MCP-URL kopieren</translation>
    </message>
    <message>
        <source>Copy the MCP gateway URL of the selected sandbox</source>
        <translation>Die URL des MCP-Gateways der ausgewählten Sandbox kopieren</translation>
    </message>
    <message>
        <source>&amp;Find</source>
        <translation>&amp;Suchen</translation>
    </message>
    <message>
        <source>Filter the list</source>
        <translation>Die Liste filtern</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Erneut versuchen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Kill sandboxes</source>
        <translation>Sandboxes beenden</translation>
    </message>
    <message numerus="yes">
        <source>Pausing %n sandbox(es)…</source>
        <translation>
            <numerusform>%n Sandbox wird pausiert…</numerusform>
            <numerusform>%n Sandboxes werden pausiert…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Paused %n sandbox(es).</source>
        <translation>
            <numerusform>%n Sandbox pausiert.</numerusform>
            <numerusform>%n Sandboxes pausiert.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Resuming %n sandbox(es)…</source>
        <translation>
            <numerusform>%n Sandbox wird fortgesetzt…</numerusform>
            <numerusform>%n Sandboxes werden fortgesetzt…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Resumed %n sandbox(es).</source>
        <translation>
            <numerusform>%n Sandbox fortgesetzt.</numerusform>
            <numerusform>%n Sandboxes fortgesetzt.</numerusform>
        </translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>These sandboxes have no public MCP URL.</source>
        <translation>Diese Sandboxes haben keine öffentliche MCP-URL.</translation>
    </message>
    <message>
        <source>MCP URL</source>
        <translation>MCP-URL</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Hauptleiste</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Profil</translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation>&amp;Profil:</translation>
    </message>
    <message>
        <source>Auto-refresh interval</source>
        <translation>Intervall der automatischen Aktualisierung</translation>
    </message>
    <message>
        <source>Refresh the list automatically (paused while minimised)</source>
        <translation>Die Liste automatisch aktualisieren (ruht, solange das Fenster minimiert ist)</translation>
    </message>
    <message>
        <source>Auto-refresh off</source>
        <translation>Automatische Aktualisierung aus</translation>
    </message>
    <message>
        <source>Every %1 s</source>
        <translation>Alle %1 s</translation>
    </message>
    <message>
        <source>More tool bar actions</source>
        <translation>Weitere Aktionen der Werkzeugleiste</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Profiles…</source>
        <translation>&amp;Profile…</translation>
    </message>
    <message>
        <source>&amp;Sandbox</source>
        <translation>&amp;Sandbox</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Sandbox Desk</source>
        <translation>Ü&amp;ber Sandbox Desk</translation>
    </message>
    <message>
        <source>About Sandbox Desk</source>
        <translation>Über Sandbox Desk</translation>
    </message>
    <message>
        <source>Sandbox Desk %1

Create, list and clean up E2B sandboxes, with every failed creation rolled back and every orphan flagged.</source>
        <translation>Sandbox Desk %1

E2B-Sandboxes erstellen, auflisten und aufräumen: Jede fehlgeschlagene Erstellung wird zurückgerollt und jede verwaiste Sandbox markiert.</translation>
    </message>
    <message>
        <source>Filter by ID, template or metadata (Ctrl+F)</source>
        <translation>Nach ID, Vorlage oder Metadaten filtern (Strg+F)</translation>
    </message>
    <message>
        <source>Filter text</source>
        <translation>Filtertext</translation>
    </message>
    <message>
        <source>State filter</source>
        <translation>Zustandsfilter</translation>
    </message>
    <message>
        <source>All states</source>
        <translation>Alle Zustände</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Laufend</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>&amp;Orphans only</source>
        <translation>Nur &amp;verwaiste</translation>
    </message>
    <message>
        <source>Show orphans only</source>
        <translation>Nur verwaiste Sandboxes zeigen</translation>
    </message>
    <message>
        <source>C&amp;lear filter</source>
        <translation>Filter &amp;leeren</translation>
    </message>
    <message>
        <source>Clear the filter</source>
        <translation>Den Filter leeren</translation>
    </message>
    <message>
        <source>Sandboxes</source>
        <translation>Sandboxes</translation>
    </message>
    <message>
        <source>No sandboxes yet.</source>
        <translation>Noch keine Sandboxes.</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Fortschritt</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Cancel the running actions</source>
        <translation>Die laufenden Aktionen abbrechen</translation>
    </message>
    <message>
        <source>Connection state</source>
        <translation>Verbindungsstatus</translation>
    </message>
    <message>
        <source>Sandbox counts</source>
        <translation>Anzahl der Sandboxes</translation>
    </message>
    <message>
        <source>Last refresh</source>
        <translation>Letzte Aktualisierung</translation>
    </message>
    <message>
        <source>Overridden by the environment: %1</source>
        <translation>Durch die Umgebung überschrieben: %1</translation>
    </message>
    <message>
        <source>Nothing answered on port %1: starting the local backend (pid %2)…</source>
        <translation>Auf Port %1 hat nichts geantwortet: Das lokale Backend wird gestartet (PID %2)…</translation>
    </message>
    <message>
        <source>Sandboxes on this computer run without isolation: code in them runs as you and can read and change your files. Install bubblewrap and restart sandbox-desk-local without --isolation none.</source>
        <translation>Sandboxes auf diesem Computer laufen ohne Isolation: Code darin läuft unter Ihrem Benutzer und kann Ihre Dateien lesen und ändern. Installieren Sie bubblewrap und starten Sie sandbox-desk-local ohne --isolation none neu.</translation>
    </message>
    <message>
        <source>Started the local backend on port %1 (pid %2).</source>
        <translation>Das lokale Backend wurde auf Port %1 gestartet (PID %2).</translation>
    </message>
    <message>
        <source>Manage profiles…</source>
        <translation>Profile verwalten…</translation>
    </message>
    <message>
        <source>Quit now?</source>
        <translation>Jetzt beenden?</translation>
    </message>
    <message numerus="yes">
        <source>Still rolling back %n creation(s). Quitting now leaves what they created running until its timeout; it will be flagged as an orphan on the next start.</source>
        <translation>
            <numerusform>%n Erstellung wird noch zurückgerollt. Beim sofortigen Beenden läuft, was sie angelegt hat, bis zu seinem Zeitlimit weiter; beim nächsten Start wird es als verwaist markiert.</numerusform>
            <numerusform>%n Erstellungen werden noch zurückgerollt. Beim sofortigen Beenden läuft, was sie angelegt haben, bis zu seinem Zeitlimit weiter; beim nächsten Start wird es als verwaist markiert.</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Keep waiting</source>
        <translation>&amp;Weiter warten</translation>
    </message>
    <message>
        <source>&amp;Quit now</source>
        <translation>&amp;Jetzt beenden</translation>
    </message>
    <message numerus="yes">
        <source>Quitting: cancelling %n creation(s) and removing what they created…</source>
        <translation>
            <numerusform>Wird beendet: %n Erstellung wird abgebrochen und das von ihr Angelegte entfernt…</numerusform>
            <numerusform>Wird beendet: %n Erstellungen werden abgebrochen und das von ihnen Angelegte entfernt…</numerusform>
        </translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbindung wird hergestellt…</translation>
    </message>
    <message>
        <source>Starting the local backend…</source>
        <translation>Das lokale Backend wird gestartet…</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>Verbunden</translation>
    </message>
    <message>
        <source>Disconnected</source>
        <translation>Getrennt</translation>
    </message>
    <message>
        <source>Showing the list from %1, which may be out of date.</source>
        <translation>Angezeigt wird die Liste von %1; sie ist möglicherweise veraltet.</translation>
    </message>
    <message>
        <source>The creation journal cannot be used: %1</source>
        <translation>Das Erstellungsjournal kann nicht verwendet werden: %1</translation>
    </message>
    <message>
        <source>Sandbox %1 is ready.</source>
        <translation>Die Sandbox %1 ist bereit.</translation>
    </message>
    <message>
        <source>A creation running in the background ended: %1</source>
        <translation>Eine Erstellung im Hintergrund ist beendet: %1</translation>
    </message>
    <message>
        <source>Kill all orphans</source>
        <translation>Alle verwaisten Sandboxes beenden</translation>
    </message>
    <message numerus="yes">
        <source>No orphan is certainly ours; %n is only suspected.</source>
        <translation>
            <numerusform>Keine verwaiste Sandbox ist sicher unsere; %n ist nur vermutet.</numerusform>
            <numerusform>Keine verwaiste Sandbox ist sicher unsere; %n sind nur vermutet.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Kill %n orphan sandbox(es)?</source>
        <translation>
            <numerusform>%n verwaiste Sandbox beenden?</numerusform>
            <numerusform>%n verwaiste Sandboxes beenden?</numerusform>
        </translation>
    </message>
    <message>
        <source>Suspected (not created by this app, no MCP gateway running):</source>
        <translation>Vermutet (nicht von dieser App erstellt, kein MCP-Gateway läuft):</translation>
    </message>
    <message numerus="yes">
        <source>Also kill the %n &amp;suspected one(s)</source>
        <translation>
            <numerusform>Auch die %n &amp;vermutete beenden</numerusform>
            <numerusform>Auch die %n &amp;vermuteten beenden</numerusform>
        </translation>
    </message>
    <message>
        <source>Kill</source>
        <translation>Beenden</translation>
    </message>
    <message numerus="yes">
        <source>Killing %n orphan(s)…</source>
        <translation>
            <numerusform>%n verwaiste Sandbox wird beendet…</numerusform>
            <numerusform>%n verwaiste Sandboxes werden beendet…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Killed %n orphan(s).</source>
        <translation>
            <numerusform>%n verwaiste Sandbox beendet.</numerusform>
            <numerusform>%n verwaiste Sandboxes beendet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Showing %1 of %2</source>
        <translation>%1 von %2 angezeigt</translation>
    </message>
    <message>
        <source>No sandbox matches the filter. Clear it to see all %1.</source>
        <translation>Keine Sandbox passt zum Filter. Leeren Sie ihn, um alle %1 zu sehen.</translation>
    </message>
    <message>
        <source>%1 running, %2 paused</source>
        <translation>%1 laufend, %2 pausiert</translation>
    </message>
    <message numerus="yes">
        <source>%n orphan(s)</source>
        <translation>
            <numerusform>%n verwaist</numerusform>
            <numerusform>%n verwaist</numerusform>
        </translation>
    </message>
    <message>
        <source>Not refreshed yet</source>
        <translation>Noch nicht aktualisiert</translation>
    </message>
    <message>
        <source>Stale: last good refresh %1</source>
        <translation>Veraltet: letzte erfolgreiche Aktualisierung %1</translation>
    </message>
    <message>
        <source>Refreshed %1</source>
        <translation>Aktualisiert %1</translation>
    </message>
    <message numerus="yes">
        <source>%n sandboxes selected.</source>
        <translation>
            <numerusform>%n Sandbox ausgewählt.</numerusform>
            <numerusform>%n Sandboxes ausgewählt.</numerusform>
        </translation>
    </message>
    <message>
        <source>No sandboxes to show.</source>
        <translation>Keine Sandboxes anzuzeigen.</translation>
    </message>
    <message numerus="yes">
        <source>Kill %n sandbox(es)? Everything running in them is lost.</source>
        <translation>
            <numerusform>%n Sandbox beenden? Alles, was darin läuft, geht verloren.</numerusform>
            <numerusform>%n Sandboxes beenden? Alles, was darin läuft, geht verloren.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Killing %n sandbox(es)…</source>
        <translation>
            <numerusform>%n Sandbox wird beendet…</numerusform>
            <numerusform>%n Sandboxes werden beendet…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Killed %n sandbox(es).</source>
        <translation>
            <numerusform>%n Sandbox beendet.</numerusform>
            <numerusform>%n Sandboxes beendet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Extend timeout</source>
        <translation>Zeitlimit verlängern</translation>
    </message>
    <message numerus="yes">
        <source>Extending %n sandbox(es)…</source>
        <translation>
            <numerusform>%n Sandbox wird verlängert…</numerusform>
            <numerusform>%n Sandboxes werden verlängert…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sandbox(es) now end in %1 minutes.</source>
        <translation>
            <numerusform>%n Sandbox endet jetzt in %1 Minuten.</numerusform>
            <numerusform>%n Sandboxes enden jetzt in %1 Minuten.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Copied %1 to the clipboard.</source>
        <translation>%1 in die Zwischenablage kopiert.</translation>
    </message>
    <message>
        <source>%1 of %2 pauses failed: %3</source>
        <translation>Bei %1 von %2 Sandboxes ist das Pausieren fehlgeschlagen: %3</translation>
    </message>
    <message>
        <source>%1 of %2 resumes failed: %3</source>
        <translation>Bei %1 von %2 Sandboxes ist das Fortsetzen fehlgeschlagen: %3</translation>
    </message>
    <message>
        <source>%1 of %2 kills failed: %3</source>
        <translation>Bei %1 von %2 Sandboxes ist das Beenden fehlgeschlagen: %3</translation>
    </message>
    <message>
        <source>%1 of %2 extensions failed: %3</source>
        <translation>Bei %1 von %2 Sandboxes ist das Verlängern fehlgeschlagen: %3</translation>
    </message>
    <message>
        <source>Session &amp;log</source>
        <translation>Sitzungs&amp;protokoll</translation>
    </message>
    <message>
        <source>This session&apos;s messages, to copy into a bug report</source>
        <translation>Die Meldungen dieser Sitzung, zum Kopieren in einen Fehlerbericht</translation>
    </message>
    <message>
        <source>The creation from %1 was cancelled; what it had created was removed.</source>
        <translation>Die Erstellung von %1 wurde abgebrochen; was sie angelegt hatte, wurde entfernt.</translation>
    </message>
    <message>
        <source>The creation goes on in the background, above the list, where it can be cancelled.</source>
        <translation>Die Erstellung läuft im Hintergrund weiter, über der Liste, wo sie abgebrochen werden kann.</translation>
    </message>
    <message numerus="yes">
        <source>Time left for %n sandbox(es), in minutes from now (at most %1):</source>
        <translation>
            <numerusform>Restzeit für %n Sandbox, in Minuten ab jetzt (höchstens %1):</numerusform>
            <numerusform>Restzeit für %n Sandboxes, in Minuten ab jetzt (höchstens %1):</numerusform>
        </translation>
    </message>
    <message>
        <source>Shorten the timeout?</source>
        <translation>Zeitlimit verkürzen?</translation>
    </message>
    <message numerus="yes">
        <source>This shortens the time of %n sandbox(es): each ends in %1 minutes, sooner than it would now.</source>
        <translation>
            <numerusform>Das verkürzt die Restzeit von %n Sandbox: Sie endet in %1 Minuten, früher als bisher.</numerusform>
            <numerusform>Das verkürzt die Restzeit von %n Sandboxes: Jede endet in %1 Minuten, früher als bisher.</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Shorten</source>
        <translation>&amp;Verkürzen</translation>
    </message>
    <message>
        <source>%1
Which E2B deployment to show</source>
        <translation>%1
Welche E2B-Umgebung angezeigt wird</translation>
    </message>
    <message>
        <source>Could not refresh the list from %1</source>
        <translation>Die Liste von %1 konnte nicht aktualisiert werden</translation>
    </message>
    <message>
        <source>Could not reach %1: no list has been loaded.</source>
        <translation>%1 ist nicht erreichbar: Es wurde keine Liste geladen.</translation>
    </message>
    <message>
        <source>The list from %1 could not be loaded.</source>
        <translation>Die Liste von %1 konnte nicht geladen werden.</translation>
    </message>
    <message>
        <source>No list loaded</source>
        <translation>Keine Liste geladen</translation>
    </message>
    <message>
        <source>No list has been loaded.</source>
        <translation>Es wurde keine Liste geladen.</translation>
    </message>
</context>
<context>
    <name>sd::McpCommand</name>
    <message>
        <source>The MCP configuration is too large: the gateway command takes %1 bytes, but Linux allows at most %2 bytes in one command-line argument. Remove servers or shorten option values by %3 bytes.</source>
        <translation>Die MCP-Konfiguration ist zu groß: Der Gateway-Befehl braucht %1 Byte, Linux erlaubt in einem Kommandozeilenargument aber höchstens %2 Byte. Entfernen Sie Server oder kürzen Sie Optionswerte um %3 Byte.</translation>
    </message>
</context>
<context>
    <name>sd::MessageBanner</name>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Close this message</source>
        <translation>Diese Meldung schließen</translation>
    </message>
    <message>
        <source>Close message</source>
        <translation>Meldung schließen</translation>
    </message>
</context>
<context>
    <name>sd::MetricsTab</name>
    <message>
        <source>CPU %</source>
        <translation>CPU %</translation>
    </message>
    <message>
        <source>Memory MiB</source>
        <translation>Speicher MiB</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>CPU and memory over time</source>
        <translation>CPU und Speicher im Zeitverlauf</translation>
    </message>
    <message>
        <source>No samples yet.</source>
        <translation>Noch keine Messwerte.</translation>
    </message>
</context>
<context>
    <name>sd::NewSandboxDialog</name>
    <message>
        <source>New sandbox</source>
        <translation>Neue Sandbox</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>&amp;Template:</source>
        <translation>&amp;Vorlage:</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>Timeout in minutes</source>
        <translation>Zeitlimit in Minuten</translation>
    </message>
    <message>
        <source>The sandbox is killed this long after it is created unless extended.</source>
        <translation>So lange nach dem Erstellen wird die Sandbox beendet, sofern das Zeitlimit nicht verlängert wird.</translation>
    </message>
    <message>
        <source>T&amp;imeout:</source>
        <translation>&amp;Zeitlimit:</translation>
    </message>
    <message>
        <source>Sandbox settings</source>
        <translation>Sandbox-Einstellungen</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>Metadaten</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Value (secret)</source>
        <translation>Wert (geheim)</translation>
    </message>
    <message>
        <source>Environment variables</source>
        <translation>Umgebungsvariablen</translation>
    </message>
    <message>
        <source>&amp;MCP servers</source>
        <translation>&amp;MCP-Server</translation>
    </message>
    <message>
        <source>M&amp;etadata</source>
        <translation>M&amp;etadaten</translation>
    </message>
    <message>
        <source>E&amp;nvironment</source>
        <translation>&amp;Umgebung</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <source>Create &amp;anyway</source>
        <translation>&amp;Trotzdem erstellen</translation>
    </message>
    <message>
        <source>Create although the MCP configuration has warnings</source>
        <translation>Erstellen, obwohl die MCP-Konfiguration Warnungen hat</translation>
    </message>
    <message>
        <source>&amp;Create</source>
        <translation>&amp;Erstellen</translation>
    </message>
    <message numerus="yes">
        <source>Search %n server(s)</source>
        <translation>
            <numerusform>%n Server durchsuchen</numerusform>
            <numerusform>%n Server durchsuchen</numerusform>
        </translation>
    </message>
    <message>
        <source>Search MCP servers</source>
        <translation>MCP-Server durchsuchen</translation>
    </message>
    <message>
        <source>MCP servers; tick to include</source>
        <translation>MCP-Server; zum Einbeziehen ankreuzen</translation>
    </message>
    <message>
        <source>Pick a server to see its options.</source>
        <translation>Wählen Sie einen Server, um seine Optionen zu sehen.</translation>
    </message>
    <message>
        <source>* required. Secret-looking options are masked.</source>
        <translation>* erforderlich. Optionen, die geheim aussehen, werden verdeckt.</translation>
    </message>
    <message>
        <source>Servers</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>MCP configuration as JSON</source>
        <translation>MCP-Konfiguration als JSON</translation>
    </message>
    <message>
        <source>{
  &quot;server-id&quot;: { &quot;option&quot;: &quot;value&quot; }
}</source>
        <translation>{
  &quot;server-id&quot;: { &quot;option&quot;: &quot;value&quot; }
}</translation>
    </message>
    <message>
        <source>Show &amp;secret values</source>
        <translation>&amp;Geheime Werte zeigen</translation>
    </message>
    <message>
        <source>Replace with the &amp;form&apos;s servers</source>
        <translation>Durch die Server aus dem &amp;Formular ersetzen</translation>
    </message>
    <message>
        <source>Raw JSON</source>
        <translation>Rohes JSON</translation>
    </message>
    <message>
        <source>Creation steps</source>
        <translation>Schritte der Erstellung</translation>
    </message>
    <message>
        <source>Gateway output</source>
        <translation>Gateway-Ausgabe</translation>
    </message>
    <message>
        <source>Nothing yet.</source>
        <translation>Noch nichts.</translation>
    </message>
    <message>
        <source>Copy &amp;ID</source>
        <translation>&amp;ID kopieren</translation>
    </message>
    <message>
        <source>&amp;Retry</source>
        <translation>&amp;Erneut versuchen</translation>
    </message>
    <message>
        <source>&amp;Cancel creation</source>
        <translation>Erstellung &amp;abbrechen</translation>
    </message>
    <message>
        <source>Run in &amp;background</source>
        <translation>Im &amp;Hintergrund ausführen</translation>
    </message>
    <message>
        <source>Close this window; the creation goes on and the main window reports how it ends</source>
        <translation>Dieses Fenster schließen; die Erstellung läuft weiter und das Hauptfenster meldet, wie sie endet</translation>
    </message>
    <message>
        <source>Choose a template.</source>
        <translation>Wählen Sie eine Vorlage.</translation>
    </message>
    <message>
        <source>A metadata row has a value but no key.</source>
        <translation>Eine Metadatenzeile hat einen Wert, aber keinen Schlüssel.</translation>
    </message>
    <message>
        <source>The metadata key &quot;%1&quot; is reserved: keys starting with &quot;%2&quot; are set by Sandbox Desk.</source>
        <translation>Der Metadatenschlüssel „%1“ ist reserviert: Schlüssel, die mit „%2“ beginnen, setzt Sandbox Desk.</translation>
    </message>
    <message>
        <source>The metadata key &quot;%1&quot; appears twice.</source>
        <translation>Der Metadatenschlüssel „%1“ kommt doppelt vor.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid environment variable name (letters, digits and _, not starting with a digit).</source>
        <translation>„%1“ ist kein gültiger Name für eine Umgebungsvariable (Buchstaben, Ziffern und _, nicht mit einer Ziffer beginnend).</translation>
    </message>
    <message>
        <source>The environment variable &quot;%1&quot; appears twice.</source>
        <translation>Die Umgebungsvariable „%1“ kommt doppelt vor.</translation>
    </message>
    <message>
        <source>MCP JSON: %1</source>
        <translation>MCP-JSON: %1</translation>
    </message>
    <message>
        <source>MCP servers run in the gateway of the &quot;mcp-gateway&quot; template; &quot;%1&quot; may not have it.</source>
        <translation>MCP-Server laufen im Gateway der Vorlage „mcp-gateway“; „%1“ hat es möglicherweise nicht.</translation>
    </message>
    <message>
        <source>Create the sandbox</source>
        <translation>Die Sandbox erstellen</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 (not in the catalog)</source>
        <translation>%1 (nicht im Katalog)</translation>
    </message>
    <message>
        <source>Tick the server in the list to configure it.</source>
        <translation>Kreuzen Sie den Server in der Liste an, um ihn einzurichten.</translation>
    </message>
    <message>
        <source>This server has no options.</source>
        <translation>Dieser Server hat keine Optionen.</translation>
    </message>
    <message>
        <source>%1 (required)</source>
        <translation>%1 (erforderlich)</translation>
    </message>
    <message>
        <source>comma-separated list</source>
        <translation>kommagetrennte Liste</translation>
    </message>
    <message>
        <source>Show or hide</source>
        <translation>Zeigen oder verbergen</translation>
    </message>
    <message>
        <source>The JSON below has an error, so the Servers form&apos;s changes are not in it: fix it, or replace it with the form&apos;s servers.</source>
        <translation>Das JSON unten enthält einen Fehler, daher fehlen darin die Änderungen aus dem Serverformular: Korrigieren Sie es oder ersetzen Sie es durch die Server aus dem Formular.</translation>
    </message>
    <message>
        <source>Secret values are hidden: tick &quot;Show secret values&quot; to edit the JSON</source>
        <translation>Geheime Werte sind verborgen: Kreuzen Sie „Geheime Werte zeigen“ an, um das JSON zu bearbeiten</translation>
    </message>
    <message>
        <source>Creating sandbox %1 from %2…</source>
        <translation>Sandbox %1 wird aus %2 erstellt…</translation>
    </message>
    <message>
        <source>Creating a sandbox from %1…</source>
        <translation>Eine Sandbox wird aus %1 erstellt…</translation>
    </message>
    <message>
        <source>%1: pending</source>
        <translation>%1: ausstehend</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Sandbox %1 is ready.</source>
        <translation>Die Sandbox %1 ist bereit.</translation>
    </message>
    <message>
        <source>Sandbox %1 runs from %2.</source>
        <translation>Die Sandbox %1 läuft mit %2.</translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s) from the MCP check.</source>
        <translation>
            <numerusform>%n Warnung aus der MCP-Prüfung.</numerusform>
            <numerusform>%n Warnungen aus der MCP-Prüfung.</numerusform>
        </translation>
    </message>
    <message>
        <source>The creation was cancelled.</source>
        <translation>Die Erstellung wurde abgebrochen.</translation>
    </message>
    <message>
        <source>The creation failed.</source>
        <translation>Die Erstellung ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>Rollback: %1</source>
        <translation>Rollback: %1</translation>
    </message>
    <message>
        <source>It is flagged as an orphan in the list, where &quot;Kill all orphans&quot; can remove it later.</source>
        <translation>Sie ist in der Liste als verwaist markiert, wo „Verwaiste beenden“ sie später entfernen kann.</translation>
    </message>
    <message>
        <source>Cancel the creation?</source>
        <translation>Die Erstellung abbrechen?</translation>
    </message>
    <message>
        <source>The sandbox is still being created. Cancelling removes what was created so far.</source>
        <translation>Die Sandbox wird noch erstellt. Abbrechen entfernt, was bisher angelegt wurde.</translation>
    </message>
    <message>
        <source>&amp;Keep watching</source>
        <translation>&amp;Weiter zusehen</translation>
    </message>
    <message>
        <source>The timeout must be from 1 to %1 minutes (24 hours).</source>
        <translation>Das Zeitlimit muss zwischen 1 und %1 Minuten (24 Stunden) liegen.</translation>
    </message>
    <message>
        <source>whole number</source>
        <translation>ganze Zahl</translation>
    </message>
    <message>
        <source>decimal number</source>
        <translation>Dezimalzahl</translation>
    </message>
    <message>
        <source>JSON object, e.g. {&quot;name&quot;: &quot;value&quot;}</source>
        <translation>JSON-Objekt, z. B. {&quot;name&quot;: &quot;value&quot;}</translation>
    </message>
</context>
<context>
    <name>sd::OrphanDetector</name>
    <message>
        <source>an unknown time</source>
        <translation>(unbekannte Zeit)</translation>
    </message>
    <message>
        <source>Creation %1 (template %2) started at %3 and stopped while %4; it never finished (the app was closed, killed or crashed). Found by its %5.</source>
        <translation>Die Erstellung %1 (Vorlage %2) begann um %3 und stoppte bei „%4“; sie wurde nie abgeschlossen (die App wurde geschlossen, abgebrochen oder ist abgestürzt). Gefunden über %5.</translation>
    </message>
    <message>
        <source>id in the journal</source>
        <translation>ihre ID im Journal</translation>
    </message>
    <message>
        <source>creation tag</source>
        <translation>ihre Erstellungsmarkierung</translation>
    </message>
    <message>
        <source>Tagged with creation %1 (started at %2, ended %3), but the creation never learned this sandbox&apos;s id: the server&apos;s answer was lost.</source>
        <translation>Mit der Erstellung %1 markiert (begonnen um %2, beendet %3), aber die Erstellung hat die ID dieser Sandbox nie erfahren: Die Antwort des Servers ging verloren.</translation>
    </message>
    <message>
        <source>Creation %1 failed (%2) and removing the sandbox failed too (%3).</source>
        <translation>Die Erstellung %1 ist fehlgeschlagen (%2), und auch das Entfernen der Sandbox ist fehlgeschlagen (%3).</translation>
    </message>
    <message>
        <source>no details</source>
        <translation>keine Details</translation>
    </message>
    <message>
        <source>A sandbox creation %1 found under its tag and tried to remove (a duplicate or the answer to a lost response) is still there.</source>
        <translation>Eine Sandbox, die die Erstellung %1 unter ihrer Markierung gefunden und zu entfernen versucht hat (ein Duplikat oder die Antwort auf eine verlorene Antwort), ist noch da.</translation>
    </message>
    <message>
        <source>Creation %1 ended %2 at %3, yet the sandbox is still there.</source>
        <translation>Die Erstellung %1 endete um %3 als „%2“, und doch ist die Sandbox noch da.</translation>
    </message>
    <message>
        <source>the process table could not be read</source>
        <translation>die Prozesstabelle konnte nicht gelesen werden</translation>
    </message>
    <message>
        <source>less than a minute</source>
        <translation>weniger als einer Minute</translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n Minute</numerusform>
            <numerusform>%n Minuten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Our creation %1 asked for MCP (%2); the sandbox has been up for %3 and no mcp-gateway process runs in it (envd lists %n process(es)): its gateway is gone.</source>
        <translation>
            <numerusform>Unsere Erstellung %1 hat MCP angefordert (%2); die Sandbox läuft seit %3, und in ihr läuft kein mcp-gateway-Prozess (envd listet %n Prozess): Ihr Gateway ist weg.</numerusform>
            <numerusform>Unsere Erstellung %1 hat MCP angefordert (%2); die Sandbox läuft seit %3, und in ihr läuft kein mcp-gateway-Prozess (envd listet %n Prozesse): Ihr Gateway ist weg.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Suspected: not created by this app (no journal record), template %1, up for %2, and no mcp-gateway process runs in it (envd lists %n process(es)), as older SDKs leave a sandbox whose MCP gateway failed to start. It may still be in use.</source>
        <translation>
            <numerusform>Vermutet: nicht von dieser App erstellt (kein Journaleintrag), Vorlage %1, läuft seit %2, und in ihr läuft kein mcp-gateway-Prozess (envd listet %n Prozess), so wie ältere SDKs eine Sandbox zurücklassen, deren MCP-Gateway nicht starten konnte. Sie wird möglicherweise noch benutzt.</numerusform>
            <numerusform>Vermutet: nicht von dieser App erstellt (kein Journaleintrag), Vorlage %1, läuft seit %2, und in ihr läuft kein mcp-gateway-Prozess (envd listet %n Prozesse), so wie ältere SDKs eine Sandbox zurücklassen, deren MCP-Gateway nicht starten konnte. Sie wird möglicherweise noch benutzt.</numerusform>
        </translation>
    </message>
    <message>
        <source>an unknown time</source>
        <comment>how long it has been up</comment>
        <translation>unbekannter Zeit</translation>
    </message>
</context>
<context>
    <name>sd::ProcessStreamJob</name>
    <message>
        <source>the stream ended without telling how the process ended</source>
        <translation>der Datenstrom endete, ohne mitzuteilen, wie der Prozess endete</translation>
    </message>
</context>
<context>
    <name>sd::ProcessesTab</name>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>Markierung</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Processes in the sandbox</source>
        <translation>Prozesse in der Sandbox</translation>
    </message>
    <message>
        <source>--config (hidden: holds secrets)</source>
        <translation>--config (verborgen: enthält Geheimnisse)</translation>
    </message>
    <message>
        <source>No processes.</source>
        <translation>Keine Prozesse.</translation>
    </message>
</context>
<context>
    <name>sd::Profile</name>
    <message>
        <source>Local (this computer)</source>
        <translation>Lokal (dieser Computer)</translation>
    </message>
    <message>
        <source>The profile needs a name.</source>
        <translation>Das Profil braucht einen Namen.</translation>
    </message>
    <message>
        <source>The local backend is on this computer: its API URL is http://127.0.0.1:PORT with a port between 1 and 65535.</source>
        <translation>Das lokale Backend läuft auf diesem Computer: Seine API-URL ist http://127.0.0.1:PORT mit einem Port zwischen 1 und 65535.</translation>
    </message>
    <message>
        <source>The domain &quot;%1&quot; is not a host name such as e2b.app.</source>
        <translation>Die Domain „%1“ ist kein Hostname wie e2b.app.</translation>
    </message>
    <message>
        <source>The API URL &quot;%1&quot; is not an http or https address.</source>
        <translation>Die API-URL „%1“ ist keine http- oder https-Adresse.</translation>
    </message>
    <message>
        <source>The sandbox URL &quot;%1&quot; is not an http or https address.</source>
        <translation>Die Sandbox-URL „%1“ ist keine http- oder https-Adresse.</translation>
    </message>
    <message>
        <source>A self-hosted profile needs a sandbox URL or a domain for the sandboxes.</source>
        <translation>Ein selbst gehostetes Profil braucht eine Sandbox-URL oder eine Domain für die Sandboxes.</translation>
    </message>
</context>
<context>
    <name>sd::ProfileStore</name>
    <message>
        <source>The local profile cannot be replaced.</source>
        <translation>Das lokale Profil kann nicht ersetzt werden.</translation>
    </message>
    <message>
        <source>The profile id is not valid.</source>
        <translation>Die Profil-ID ist ungültig.</translation>
    </message>
</context>
<context>
    <name>sd::ProfilesDialog</name>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>Profiles</source>
        <translation>Profile</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>Add a profile</source>
        <translation>Ein Profil hinzufügen</translation>
    </message>
    <message>
        <source>E2B (cloud)</source>
        <translation>E2B (Cloud)</translation>
    </message>
    <message>
        <source>Self-hosted E2B</source>
        <translation>Selbst gehostetes E2B</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>Domain</translation>
    </message>
    <message>
        <source>API URL</source>
        <translation>API-URL</translation>
    </message>
    <message>
        <source>Sandbox URL</source>
        <translation>Sandbox-URL</translation>
    </message>
    <message>
        <source>optional: one URL for every sandbox&apos;s envd</source>
        <translation>optional: eine URL für das envd jeder Sandbox</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>&amp;Art:</translation>
    </message>
    <message>
        <source>&amp;Domain:</source>
        <translation>&amp;Domain:</translation>
    </message>
    <message>
        <source>API &amp;URL:</source>
        <translation>API-&amp;URL:</translation>
    </message>
    <message>
        <source>Sa&amp;ndbox URL:</source>
        <translation>Sa&amp;ndbox-URL:</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>API-S&amp;chlüssel:</translation>
    </message>
    <message>
        <source>This computer&apos;s backend</source>
        <translation>Das Backend dieses Computers</translation>
    </message>
    <message>
        <source>stored in the keychain: leave empty to keep</source>
        <translation>im Schlüsselbund gespeichert: zum Beibehalten leer lassen</translation>
    </message>
    <message>
        <source>e2b_…</source>
        <translation>e2b_…</translation>
    </message>
    <message>
        <source>The key goes to the system keychain, never to a settings file.</source>
        <translation>Der Schlüssel kommt in den Schlüsselbund des Systems, nie in eine Einstellungsdatei.</translation>
    </message>
    <message>
        <source>The local backend keeps its own key in %1; only the port in the API URL can change.</source>
        <translation>Das lokale Backend bewahrt seinen eigenen Schlüssel in %1 auf; nur der Port in der API-URL kann sich ändern.</translation>
    </message>
    <message>
        <source>Saved, but the key could not be stored: %1</source>
        <translation>Gespeichert, aber der Schlüssel konnte nicht abgelegt werden: %1</translation>
    </message>
    <message>
        <source>Saved; the key is in the keychain.</source>
        <translation>Gespeichert; der Schlüssel liegt im Schlüsselbund.</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>Gespeichert.</translation>
    </message>
    <message>
        <source>Removed.</source>
        <translation>Entfernt.</translation>
    </message>
    <message>
        <source>Type the API key to test it.</source>
        <translation>Geben Sie den API-Schlüssel ein, um ihn zu testen.</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>Wird getestet…</translation>
    </message>
    <message>
        <source>Connected: the server accepted the key.</source>
        <translation>Verbunden: Der Server hat den Schlüssel angenommen.</translation>
    </message>
    <message>
        <source>Use the E2B &amp;CLI&apos;s login…</source>
        <translation>Die Anmeldung der E2B-&amp;CLI verwenden…</translation>
    </message>
    <message>
        <source>Create an E2B profile with the key of the E2B CLI&apos;s login</source>
        <translation>Ein E2B-Profil mit dem Schlüssel der Anmeldung der E2B-CLI anlegen</translation>
    </message>
    <message>
        <source>The E2B CLI is logged in with %1.</source>
        <translation>Die E2B-CLI ist mit %1 angemeldet.</translation>
    </message>
    <message>
        <source>No E2B profile could be created: %1</source>
        <translation>Es konnte kein E2B-Profil angelegt werden: %1</translation>
    </message>
    <message>
        <source>Added the profile &quot;%1&quot;, but its key could not be stored: %2</source>
        <translation>Das Profil „%1“ wurde hinzugefügt, aber sein Schlüssel konnte nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>The profile &quot;%1&quot; already has %2.</source>
        <translation>Das Profil „%1“ hat bereits %2.</translation>
    </message>
    <message>
        <source>Added the profile &quot;%1&quot;. %2</source>
        <translation>Das Profil „%1“ wurde hinzugefügt. %2</translation>
    </message>
    <message>
        <source>Added the profile &quot;%1&quot; with %2, stored in the system keychain.</source>
        <translation>Das Profil „%1“ mit %2 wurde hinzugefügt und im Schlüsselbund des Systems gespeichert.</translation>
    </message>
    <message>
        <source>Saved. %1</source>
        <translation>Gespeichert. %1</translation>
    </message>
    <message>
        <source>Connected: the server accepted the key. %1</source>
        <translation>Verbunden: Der Server hat den Schlüssel angenommen. %1</translation>
    </message>
    <message>
        <source>Reading the key from the keychain…</source>
        <translation>Der Schlüssel wird aus dem Schlüsselbund gelesen…</translation>
    </message>
    <message>
        <source>The key could not be read from the keychain: %1</source>
        <translation>Der Schlüssel konnte nicht aus dem Schlüsselbund gelesen werden: %1</translation>
    </message>
    <message>
        <source>No key is stored for this profile: type the API key to test it.</source>
        <translation>Für dieses Profil ist kein Schlüssel gespeichert: Geben Sie den API-Schlüssel ein, um ihn zu testen.</translation>
    </message>
</context>
<context>
    <name>sd::ReadKeyJob</name>
    <message>
        <source>The keychain could not be read</source>
        <translation>Der Schlüsselbund konnte nicht gelesen werden</translation>
    </message>
</context>
<context>
    <name>sd::ResolveProfileJob</name>
    <message>
        <source>The key store is gone.</source>
        <translation>Der Schlüsselspeicher ist nicht mehr vorhanden.</translation>
    </message>
    <message>
        <source>Enter the API key of &quot;%1&quot; in the profile settings for this session, or set E2B_API_KEY.</source>
        <translation>Geben Sie den API-Schlüssel von „%1“ für diese Sitzung in den Profileinstellungen ein oder setzen Sie E2B_API_KEY.</translation>
    </message>
    <message>
        <source>No API key is stored for &quot;%1&quot;. Enter it in the profile settings.</source>
        <translation>Für „%1“ ist kein API-Schlüssel gespeichert. Geben Sie ihn in den Profileinstellungen ein.</translation>
    </message>
    <message>
        <source>The Local profile is reached through the local backend&apos;s starter, not here.</source>
        <translation>Das lokale Profil wird über den Starter des lokalen Backends erreicht, nicht hier.</translation>
    </message>
</context>
<context>
    <name>sd::ResumeSandboxJob</name>
    <message>
        <source>the resumed sandbox could not be read: %1</source>
        <translation>die fortgesetzte Sandbox konnte nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>sd::SandboxLogsJob</name>
    <message>
        <source>the sandbox log could not be read: %1</source>
        <translation>das Sandbox-Protokoll konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>a sandbox log entry could not be read: %1</source>
        <translation>ein Eintrag im Sandbox-Protokoll konnte nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>sd::SandboxMetricsJob</name>
    <message>
        <source>the sandbox metrics could not be read: %1</source>
        <translation>die Messwerte der Sandbox konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>a metrics sample could not be read: %1</source>
        <translation>ein Messwert konnte nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>sd::SandboxTableModel</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>%1 (template %2)</source>
        <translation>%1 (Vorlage %2)</translation>
    </message>
    <message>
        <source>expiring</source>
        <translation>läuft ab</translation>
    </message>
    <message>
        <source>Paused: does not expire</source>
        <translation>Pausiert: läuft nicht ab</translation>
    </message>
    <message>
        <source>Ends at %1</source>
        <translation>Endet um %1</translation>
    </message>
    <message>
        <source>Suspected orphan</source>
        <translation>Vermutlich verwaist</translation>
    </message>
    <message>
        <source>Orphan</source>
        <translation>Verwaist</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>Restzeit</translation>
    </message>
    <message>
        <source>vCPU</source>
        <translation>vCPU</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>RAM</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>Metadaten</translation>
    </message>
    <message>
        <source>Orphan flag: a sandbox left behind by a failed creation</source>
        <translation>Markierung „verwaist“: eine Sandbox, die eine fehlgeschlagene Erstellung zurückgelassen hat</translation>
    </message>
    <message>
        <source>Orphan flag</source>
        <translation>Markierung „verwaist“</translation>
    </message>
    <message>
        <source>%1 · suspected orphan</source>
        <translation>%1 · vermutlich verwaist</translation>
    </message>
    <message>
        <source>%1 · orphan</source>
        <translation>%1 · verwaist</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 T %2 h</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
</context>
<context>
    <name>sd::SaveProfileJob</name>
    <message>
        <source>The profile store is gone.</source>
        <translation>Der Profilspeicher ist nicht mehr vorhanden.</translation>
    </message>
</context>
<context>
    <name>sd::SendInputJob</name>
    <message>
        <source>Could not send input to the process</source>
        <translation>Eingabe an den Prozess konnte nicht gesendet werden</translation>
    </message>
</context>
<context>
    <name>sd::SendSignalJob</name>
    <message>
        <source>Could not signal the process</source>
        <translation>Dem Prozess konnte kein Signal gesendet werden</translation>
    </message>
</context>
<context>
    <name>sd::SessionLogModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
</context>
<context>
    <name>sd::SessionLogView</name>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Session log</source>
        <translation>Sitzungsprotokoll</translation>
    </message>
    <message>
        <source>Session log messages</source>
        <translation>Meldungen des Sitzungsprotokolls</translation>
    </message>
    <message>
        <source>Copy the session log</source>
        <translation>Das Sitzungsprotokoll kopieren</translation>
    </message>
    <message>
        <source>Copy every message as text, for a bug report</source>
        <translation>Alle Meldungen als Text kopieren, für einen Fehlerbericht</translation>
    </message>
    <message numerus="yes">
        <source>Copied %n message(s) to the clipboard.</source>
        <translation>
            <numerusform>%n Meldung in die Zwischenablage kopiert.</numerusform>
            <numerusform>%n Meldungen in die Zwischenablage kopiert.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) of this session</source>
        <translation>
            <numerusform>%n Meldung dieser Sitzung</numerusform>
            <numerusform>%n Meldungen dieser Sitzung</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n older one(s) no longer kept</source>
        <translation>
            <numerusform>%n ältere nicht mehr aufbewahrt</numerusform>
            <numerusform>%n ältere nicht mehr aufbewahrt</numerusform>
        </translation>
    </message>
    <message>
        <source>Debug messages are on (--verbose).</source>
        <translation>Debug-Meldungen sind eingeschaltet (--verbose).</translation>
    </message>
    <message>
        <source>Start with --verbose for debug messages.</source>
        <translation>Für Debug-Meldungen mit --verbose starten.</translation>
    </message>
</context>
<context>
    <name>sd::StartProcessJob</name>
    <message>
        <source>Could not run the process</source>
        <translation>Der Prozess konnte nicht ausgeführt werden</translation>
    </message>
</context>
<context>
    <name>sd::TrayIcon</name>
    <message>
        <source>&amp;Show Sandbox Desk</source>
        <translation>Sandbox Desk &amp;anzeigen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Orphan sandboxes found</source>
        <translation>Verwaiste Sandboxes gefunden</translation>
    </message>
    <message numerus="yes">
        <source>%n sandbox(es) left behind by failed creations: %1</source>
        <translation>
            <numerusform>%n Sandbox von fehlgeschlagenen Erstellungen zurückgelassen: %1</numerusform>
            <numerusform>%n Sandboxes von fehlgeschlagenen Erstellungen zurückgelassen: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Sandbox Desk: %n orphan(s)</source>
        <translation>
            <numerusform>Sandbox Desk: %n verwaiste Sandbox</numerusform>
            <numerusform>Sandbox Desk: %n verwaiste Sandboxes</numerusform>
        </translation>
    </message>
    <message>
        <source>Sandbox Desk</source>
        <translation>Sandbox Desk</translation>
    </message>
    <message>
        <source>A sandbox creation failed</source>
        <translation>Eine Sandbox-Erstellung ist fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>sd::WriteKeyJob</name>
    <message>
        <source>The API key is empty.</source>
        <translation>Der API-Schlüssel ist leer.</translation>
    </message>
    <message>
        <source>The key store is gone.</source>
        <translation>Der Schlüsselspeicher ist nicht mehr vorhanden.</translation>
    </message>
    <message>
        <source>The keychain did not store the key</source>
        <translation>Der Schlüsselbund hat den Schlüssel nicht gespeichert</translation>
    </message>
</context>
</TS>
